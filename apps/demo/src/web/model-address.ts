/** The Hugging Face Hub the page loads model ids from, unless the page's `?hub=` says another. */
export const DEFAULT_HUB = 'https://huggingface.co';

/** `org/name`: a Hugging Face model id (letters, digits, `_ . -`; no scheme, no leading slash). */
const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

/**
 * The folder URL of what a person typed as a model: a Hugging Face model id (`org/name`) becomes
 * `<hub>/<id>/resolve/main/`; a model's page on the hub (`<hub>/<id>` or `<hub>/<id>/tree/<branch>`)
 * becomes its `resolve/<branch>/` folder; any other URL or path is the folder itself. Surrounding
 * white space is ignored; an empty input is an error saying what to type.
 *
 * @example
 * modelAddress('sentence-transformers/all-MiniLM-L6-v2'); // 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/'
 * modelAddress('/models/attnkit-tiny-bert/'); // '/models/attnkit-tiny-bert/'
 */
export function modelAddress(input: string, hub: string = DEFAULT_HUB): string {
  const typed = input.trim();
  if (typed === '') throw new Error('Type a Hugging Face model id (such as sentence-transformers/all-MiniLM-L6-v2) or the URL of a model folder.');
  const root = hub.replace(/\/+$/, '');
  if (MODEL_ID.test(typed)) return `${root}/${typed}/resolve/main/`;
  const page = typed.startsWith(`${root}/`) ? /^([^/]+\/[^/]+?)\/?(?:\/tree\/([^/]+)\/?)?$/.exec(typed.slice(root.length + 1)) : null;
  if (page !== null && MODEL_ID.test(page[1]!)) return `${root}/${page[1]}/resolve/${page[2] ?? 'main'}/`;
  return typed;
}
