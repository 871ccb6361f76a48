import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/** A parsed regular expression: just what the backtracking analysis needs. */
type Node =
  | { readonly kind: 'atom' }
  | { readonly kind: 'backref' }
  | { readonly kind: 'group'; readonly branches: readonly Node[][] }
  | { readonly kind: 'quantifier'; readonly max: number; readonly body: Node };

class Unparsable extends Error {}

/** Parses a JavaScript pattern (`u` flag syntax) into {@link Node}s. Character classes and escapes are atoms. */
function parse(source: string): Node[][] {
  let at = 0;
  const fail = (what: string): never => {
    throw new Unparsable(`${what} at ${at}`);
  };
  const escape = (): Node => {
    at++; // the backslash
    const c = source[at++];
    if (c === undefined) fail('a trailing backslash');
    if (/[1-9]/.test(c as string)) {
      while (/[0-9]/.test(source[at] ?? '')) at++;
      return { kind: 'backref' };
    }
    if (c === 'k' && source[at] === '<') {
      at = source.indexOf('>', at) + 1 || fail('an unclosed \\k<name>');
      return { kind: 'backref' };
    }
    if ((c === 'p' || c === 'P' || c === 'u') && source[at] === '{') at = source.indexOf('}', at) + 1 || fail('an unclosed \\p{...}');
    else if (c === 'u') at += 4;
    else if (c === 'x') at += 2;
    else if (c === 'c') at += 1;
    return { kind: 'atom' };
  };
  const characterClass = (): Node => {
    at++; // [
    if (source[at] === '^') at++;
    if (source[at] === ']') at++; // a leading ] is a literal outside u mode
    while (at < source.length && source[at] !== ']') {
      if (source[at] === '\\') escape();
      else at++;
    }
    if (source[at++] !== ']') fail('an unclosed character class');
    return { kind: 'atom' };
  };
  const alternation = (depth: number): Node[][] => {
    if (depth > 200) fail('groups nested more than 200 deep');
    const branches: Node[][] = [[]];
    while (at < source.length && source[at] !== ')') {
      const c = source[at] as string;
      const branch = branches[branches.length - 1] as Node[];
      if (c === '|') {
        at++;
        branches.push([]);
        continue;
      }
      let node: Node;
      if (c === '(') {
        at++;
        if (source[at] === '?') {
          const head = /^\?(<[=!]|[=!:]|<[^>]*>|[a-zA-Z-]*:)/.exec(source.slice(at));
          if (head === null) fail('an unknown group');
          at += (head as RegExpExecArray)[0].length;
        }
        node = { kind: 'group', branches: alternation(depth + 1) };
        if (source[at++] !== ')') fail('an unclosed group');
      } else if (c === '[') node = characterClass();
      else if (c === '\\') node = escape();
      else if ('*+?{'.includes(c)) {
        if (c === '{' && !/^\{\d+(,\d*)?\}/.test(source.slice(at))) node = (at++, { kind: 'atom' });
        else fail('a quantifier with nothing to repeat');
        branch.push(node!);
        continue;
      } else node = (at++, { kind: 'atom' });
      // quantifiers
      for (;;) {
        const q = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(at));
        if (q === null) break;
        at += q[0].length;
        const max = q[1] === '?' ? 1 : q[1] !== undefined ? Infinity : q[3] === undefined ? Number(q[2]) : q[4] === '' ? Infinity : Number(q[4]);
        node = { kind: 'quantifier', max, body: node };
      }
      branch.push(node);
    }
    return branches;
  };
  const top = alternation(0);
  if (at !== source.length) fail('an unmatched )');
  return top;
}

/** What a subpattern contains that makes repeating it ambiguous. */
function inside(nodes: readonly Node[]): { repeats: boolean; alternation: boolean; backref: boolean } {
  const found = { repeats: false, alternation: false, backref: false };
  const visit = (node: Node): void => {
    if (node.kind === 'backref') found.backref = true;
    else if (node.kind === 'quantifier') {
      if (node.max > 1) found.repeats = true;
      visit(node.body);
    } else if (node.kind === 'group') {
      if (node.branches.length > 1) found.alternation = true;
      node.branches.forEach((b) => b.forEach(visit));
    }
  };
  nodes.forEach(visit);
  return found;
}

/** Unbounded quantifiers one after another in a branch (through groups that are not repeated). */
function unboundedInARow(branch: readonly Node[]): number {
  return branch.reduce((n, node) => n + (node.kind === 'quantifier' && node.max === Infinity ? 1 : node.kind === 'group' ? Math.max(0, ...node.branches.map(unboundedInARow)) : 0), 0);
}

/**
 * Why a regular expression (JavaScript syntax, as compiled with the `u` flag) can backtrack
 * catastrophically, or `undefined` when it is accepted. The rules are conservative — they refuse
 * some harmless patterns, never a real tokenizer's:
 * - a repeated subpattern (`*`, `+`, `{n,}`, `{n,m}` with m > 1) that itself holds a repetition, an
 *   alternation or a backreference: `(a+)+`, `(.*a){20}`, `(a|aa)+`, `((a)\2)+` (exponential);
 * - more than two unbounded quantifiers in a row: `a*a*a*b` (polynomial of degree three or more);
 * - a pattern it cannot parse.
 *
 * @example
 * regexHazard('(a+)+$'); // 'nested quantifier: a repeated group holds a repetition'
 * regexHazard(" ?\\p{L}+| ?\\p{N}+|\\s+(?!\\S)|\\s+"); // undefined
 */
export function regexHazard(source: string): string | undefined {
  if (typeof source !== 'string') throw new InvalidArgumentError({ caller: 'regexHazard', argument: 'source', expected: 'a regular expression source string', received: describeValue(source) });
  let top: Node[][];
  try {
    top = parse(source);
  } catch (error) {
    if (error instanceof Unparsable) return `cannot be parsed (${error.message})`;
    throw error;
  }
  let hazard: string | undefined;
  const visit = (node: Node): void => {
    if (hazard !== undefined) return;
    if (node.kind === 'quantifier') {
      if (node.max > 1) {
        const innerBody = node.body.kind === 'group' ? inside(node.body.branches.flat()) : { repeats: false, alternation: false, backref: false };
        if (node.body.kind === 'quantifier' && node.body.max > 1) hazard = 'nested quantifier: a repetition of a repetition';
        else if (innerBody.repeats) hazard = 'nested quantifier: a repeated group holds a repetition';
        else if (node.body.kind === 'group' && node.body.branches.length > 1) hazard = 'quantified alternation: a repeated group holds alternatives';
        else if (innerBody.alternation) hazard = 'quantified alternation: a repeated group holds alternatives';
        else if (innerBody.backref) hazard = 'backreference in a repeated group';
      }
      visit(node.body);
    } else if (node.kind === 'group') branches(node.branches);
  };
  const branches = (list: readonly Node[][]): void => {
    for (const branch of list) {
      if (hazard === undefined && unboundedInARow(branch) > 2) hazard = 'unbounded quantifiers: more than two in a row (polynomial backtracking)';
      branch.forEach(visit);
    }
  };
  branches(top);
  return hazard;
}
