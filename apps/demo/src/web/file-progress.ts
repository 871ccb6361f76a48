import type { LoadProgress } from '@attnkit/hub';

function size(bytes: number): string {
  return bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(0)} kB` : `${bytes} B`;
}

/**
 * One progress bar per model file in `list` (an `<ul>`): `update` is a loader's `onProgress`, adding
 * a row (`data-file`, with a `<progress>` and the bytes read) for each file the first time it
 * reports; `clear` empties the list for the next load.
 *
 * @example
 * const progress = fileProgress(document.getElementById('files') as HTMLUListElement);
 * await loadSentenceEncoder(url, { onProgress: progress.update });
 */
export function fileProgress(list: HTMLUListElement): { update: (progress: LoadProgress) => void; clear: () => void } {
  const rows = new Map<string, { bar: HTMLProgressElement; text: HTMLElement }>();
  return {
    clear: () => {
      rows.clear();
      list.replaceChildren();
    },
    update: ({ file, loaded, total }) => {
      let row = rows.get(file);
      if (row === undefined) {
        const item = Object.assign(document.createElement('li'), { className: 'file' });
        item.dataset['file'] = file;
        row = { bar: document.createElement('progress'), text: document.createElement('span') };
        item.append(Object.assign(document.createElement('code'), { textContent: file }), row.bar, row.text);
        list.append(item);
        rows.set(file, row);
      }
      row.bar.max = total ?? Math.max(loaded, 1); // unknown total (no Content-Length): full as it goes
      row.bar.value = loaded;
      row.text.textContent = total === undefined ? size(loaded) : `${size(loaded)} of ${size(total)}`;
    },
  };
}
