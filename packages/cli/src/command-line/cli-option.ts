/**
 * How an option turns a value down: throws the command's typed usage error naming the option, e.g.
 * `attnkit bench: '--runs' must be a whole number from 1 to 1000; received "many". Usage: …`.
 */
export type Refuse = (expected: string, received: string) => never;

/**
 * One option of the `attnkit` command line, said once: its name, the placeholder of its value, its
 * help line, its default in words, and how the text given becomes the value a command uses. Every
 * command's parser (`parseCommandLine`), its `--help` and the README's option tables are made
 * from these. Build them with `switchOption`, `valueOption`, `repeatedOption` or `wholeNumberOption`.
 *
 * @example
 * const runs = wholeNumberOption({ name: 'runs', help: 'warm runs', min: 1, max: 1000, fallback: 5 });
 * formatFlag(runs); // '--runs N'
 */
export interface CliOption<T> {
  /** The long name without its dashes: `'backend'` for `--backend`. */
  readonly name: string;
  /** A one-letter alias: `'h'` for `-h`. */
  readonly short?: string;
  /** How help writes its value (`'cpu|wasm'`, `'DIR'`); `undefined` for a switch, which takes none. */
  readonly placeholder: string | undefined;
  /** Whether it may be given more than once (every value is kept, in order). */
  readonly multiple: boolean;
  readonly help: string;
  /** What applies without the option, in words (`'wasm'`, `'the embedded attnkit-tiny-bert'`). */
  readonly default?: string;
  /**
   * Its value from what the command line gave: `true` for a switch, the text of a value, every text
   * of a repeated option, or `undefined` when it is absent; `refuse` for a value it cannot use.
   */
  readonly read: (given: string | boolean | string[] | undefined, refuse: Refuse) => T;
}

/**
 * The option as help and the README write it: `'--backend cpu|wasm'`, `'--json'`, `'-h, --help'`.
 *
 * @example
 * formatFlag(OPTIONS.model); // '--model DIR'
 */
export function formatFlag(option: CliOption<unknown>): string {
  return `${option.short === undefined ? '' : `-${option.short}, `}--${option.name}${option.placeholder === undefined ? '' : ` ${option.placeholder}`}`;
}
