/**
 * A fine-tuning input the panel cannot use: `field` names the box (`'pairs'`, `'steps'`,
 * `'learningRate'`), `line` the line of the pairs box (1-based) where it is one line. The message
 * says what was there and what is expected.
 */
export class FineTuneInputError extends Error {
  override readonly name = 'FineTuneInputError';
  readonly field: 'pairs' | 'steps' | 'learningRate';
  readonly line: number | undefined;

  constructor(message: string, fields: { readonly field: FineTuneInputError['field']; readonly line?: number }) {
    super(message);
    this.field = fields.field;
    this.line = fields.line;
  }
}
