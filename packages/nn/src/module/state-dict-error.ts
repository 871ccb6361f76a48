import { AttnkitError, messageText as text, messageTexts as texts } from '@attnkit/errors';

/** A key whose tensor does not fit its parameter. */
export interface MismatchedKey {
  readonly key: string;
  /** The parameter's shape and dtype, e.g. `'[16, 8] float32'`. */
  readonly expected: string;
  /** What the state dict holds, e.g. `'[8, 16] float32'` or `'a disposed tensor'`. */
  readonly received: string;
}

const SHOWN = 12;

function listed(label: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  const more = items.length > SHOWN ? `, and ${items.length - SHOWN} more` : '';
  return ` ${items.length} ${label}: ${items.slice(0, SHOWN).join(', ')}${more}.`;
}

/**
 * A state dict does not fit a module. Like PyTorch's `load_state_dict`, it reports every
 * problem at once — `missingKeys`, `unexpectedKeys` and `mismatchedKeys` hold the full lists; the
 * message shows the first few of each (so a 10 000-layer mismatch stays a readable message). It is built
 * from whatever it is given (a part that is no string described, a list that is no list read as empty),
 * so reporting never throws.
 *
 * @example
 * try { model.loadStateDict(weights); } catch (e) { if (e instanceof StateDictError) console.log(e.missingKeys); }
 */
export class StateDictError extends AttnkitError {
  readonly caller: string;
  readonly missingKeys: readonly string[];
  readonly unexpectedKeys: readonly string[];
  readonly mismatchedKeys: readonly MismatchedKey[];

  constructor(caller: string, problems: { missingKeys: readonly string[]; unexpectedKeys: readonly string[]; mismatchedKeys: readonly MismatchedKey[] }, hint = '') {
    // built from whatever it is given (a part that is no string described, a list that is no list read as empty), so reporting never throws
    const given = (typeof problems === 'object' && problems !== null ? problems : {}) as Partial<typeof problems>;
    const missingKeys = texts(given.missingKeys);
    const unexpectedKeys = texts(given.unexpectedKeys);
    const mismatchedKeys: MismatchedKey[] = (Array.isArray(given.mismatchedKeys) ? Array.from(given.mismatchedKeys as unknown[]) : []).map((m) => {
      const { key, expected, received } = (typeof m === 'object' && m !== null ? m : { key: m }) as Partial<MismatchedKey>;
      return { key: text(key), expected: text(expected), received: text(received) };
    });
    const name = text(caller);
    super(
      'ATTNKIT_STATE_DICT',
      `${name}: the state dict does not fit the module.` +
        listed('missing', missingKeys) +
        listed('unexpected', unexpectedKeys) +
        listed('mis-shaped', mismatchedKeys.map((m) => `${m.key} (expected ${m.expected}, received ${m.received})`)) +
        (hint === '' || hint === undefined ? '' : ` ${text(hint)}`),
    );
    this.caller = name;
    this.missingKeys = missingKeys;
    this.unexpectedKeys = unexpectedKeys;
    this.mismatchedKeys = mismatchedKeys;
  }

}
