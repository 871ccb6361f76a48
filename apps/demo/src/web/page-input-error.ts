/**
 * A box of the page that does not read: `field` names the box (`'pairs'`, `'steps'`,
 * `'learningRate'` of the fine-tuning panel; `'corpus'`, `'query'`, `'topK'` of the search panel;
 * `'prompt'`, `'maxNewTokens'`, `'temperature'`, `'seed'` of the generation panel), `line` the line
 * of a multi-line box (1-based) where it is one line. The message says what was there and what is
 * expected.
 */
export class PageInputError extends Error {
  override readonly name = 'PageInputError';
  readonly field: 'pairs' | 'steps' | 'learningRate' | 'corpus' | 'query' | 'topK' | 'prompt' | 'maxNewTokens' | 'temperature' | 'seed';
  readonly line: number | undefined;

  constructor(message: string, fields: { readonly field: PageInputError['field']; readonly line?: number }) {
    super(message);
    this.field = fields.field;
    this.line = fields.line;
  }
}
