import { InvalidArgumentError, describeValue } from '@attnkit/errors';
/** A parsed regular expression: just what the backtracking analysis needs. */
type Node =
  | { readonly kind: 'atom' }
  | { readonly kind: 'backref' }
  | { readonly kind: 'group'; readonly lookaround: boolean; readonly branches: readonly Node[][] }
  | { readonly kind: 'quantifier'; readonly min: number; readonly max: number; readonly body: Node };

/**
 * A count whose range (max - min) is above this is treated as unbounded: `a{0,99}` backtracks like
 * `a*` on the text a tokenizer sees, while the counts of published patterns stay small (`\p{N}{1,3}`).
 */
const LARGE_COUNT = 10;
/** The ways an unbounded quantifier counts for in {@link MAX_WAYS}: it can give back any of the text it took. */
const UNBOUNDED_WAYS = 1024;
/**
 * The most ways a branch may have to reach a part that can fail (choices multiply along a branch,
 * alternatives add; an unbounded quantifier counts {@link UNBOUNDED_WAYS}). `a?` twelve times before
 * `x` is 4096 ways, under 0.1 s on 5 000 characters in V8; sixteen take 1.8 s. `\s+(?!\S)` is 1024.
 */
const MAX_WAYS = 4096;

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
        let lookaround = false;
        if (source[at] === '?') {
          const head = /^\?(<[=!]|[=!:]|<[^>]*>|[a-zA-Z-]*:)/.exec(source.slice(at));
          if (head === null) fail('an unknown group');
          lookaround = /^\?<?[=!]$/.test((head as RegExpExecArray)[0]);
          at += (head as RegExpExecArray)[0].length;
        }
        node = { kind: 'group', lookaround, branches: alternation(depth + 1) };
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
        const min = q[1] === undefined ? Number(q[2]) : q[1] === '+' ? 1 : 0;
        const max = q[1] === '?' ? 1 : q[1] !== undefined ? Infinity : q[3] === undefined ? Number(q[2]) : q[4] === '' ? Infinity : Number(q[4]);
        node = { kind: 'quantifier', min, max, body: node };
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
function inside(nodes: readonly Node[]): { repeats: boolean; alternation: boolean; backref: boolean; optional: boolean } {
  const found = { repeats: false, alternation: false, backref: false, optional: false };
  const visit = (node: Node): void => {
    if (node.kind === 'backref') found.backref = true;
    else if (node.kind === 'quantifier') {
      if (node.max > 1) found.repeats = true;
      else if (node.min < node.max) found.optional = true;
      visit(node.body);
    } else if (node.kind === 'group') {
      if (node.branches.length > 1) found.alternation = true;
      node.branches.forEach((b) => b.forEach(visit));
    }
  };
  nodes.forEach(visit);
  return found;
}

/** Why repeating `node` (a quantifier with max > 1) is exponential, if it is. */
function repeatedHazard(node: Node & { kind: 'quantifier' }): string | undefined {
  const { body } = node;
  if (body.kind === 'quantifier') return body.max > 1 ? 'nested quantifier: a repetition of a repetition' : body.min < body.max ? 'optional part in a repeated group: the repetitions may split the same text in more than one way' : undefined;
  if (body.kind !== 'group') return undefined;
  const found = inside(body.branches.flat());
  if (found.repeats) return 'nested quantifier: a repeated group holds a repetition';
  if (body.branches.length > 1 || found.alternation) return 'quantified alternation: a repeated group holds alternatives';
  if (found.backref) return 'backreference in a repeated group';
  if (found.optional) return 'optional part in a repeated group: the repetitions may split the same text in more than one way';
  return undefined;
}

/** A count that backtracks like `*`: unbounded, or more than LARGE_COUNT choices (`{0,99}`). */
const unbounded = (node: Node): boolean => node.kind === 'quantifier' && node.max - node.min > LARGE_COUNT;

/** How many ways `node` can match one text, at most: choices multiply, alternatives add. */
function ways(node: Node, memo: WeakMap<Node, number>): number {
  const known = memo.get(node);
  if (known !== undefined) return known;
  let count = 1;
  if (node.kind === 'group' && !node.lookaround) count = node.branches.reduce((sum, branch) => sum + branch.reduce((product, n) => product * ways(n, memo), 1), 0);
  else if (node.kind === 'quantifier') {
    const body = ways(node.body, memo);
    if (unbounded(node)) count = UNBOUNDED_WAYS * body;
    else {
      count = 0;
      for (let times = node.min; times <= node.max; times++) count += body ** times;
    }
  }
  memo.set(node, count);
  return count;
}

/**
 * One path through a branch, up to a point: the unbounded quantifiers on it (`total`), those since
 * the last optional part began (`uncaught`: a failure inside an optional part is caught by skipping
 * it, so the quantifiers before it are not tried again), and the ways to get there.
 */
interface Run {
  readonly total: number;
  readonly uncaught: number;
  readonly ways: number;
}

/** Walks `branch` from `from`, reporting a polynomial or exponential hazard on the way; returns the worst end. */
function run(branch: readonly Node[], from: Run, report: (reason: string) => void, memo: WeakMap<Node, number>): Run {
  let at = from;
  for (const node of branch) at = step(node, at, report, memo);
  return at;
}
function step(node: Node, at: Run, report: (reason: string) => void, memo: WeakMap<Node, number>): Run {
  const mayFail = (): void => {
    if (at.uncaught >= 2) report('unbounded quantifiers: two in a row before a part that can fail (polynomial backtracking)');
    else if (at.ways > MAX_WAYS) report(`too many choices in a row: more than ${MAX_WAYS} ways to reach a part that can fail, each tried again when it fails`);
  };
  const waysAfter = at.ways * ways(node, memo);
  if (node.kind === 'atom' || node.kind === 'backref' || (node.kind === 'group' && node.lookaround)) {
    mayFail(); // a lookaround is atomic in JavaScript: its inside is checked on its own
    return at;
  }
  if (node.kind === 'group') {
    const ends = node.branches.map((branch) => run(branch, at, report, memo));
    return { total: Math.max(...ends.map((end) => end.total)), uncaught: Math.max(...ends.map((end) => end.uncaught)), ways: waysAfter };
  }
  if (unbounded(node)) {
    if (at.total >= 2) report('unbounded quantifiers: more than two in a row (polynomial backtracking)');
    if (node.min >= 1) mayFail();
    return { total: at.total + 1, uncaught: at.uncaught + 1, ways: waysAfter };
  }
  if (node.min >= 1) return { ...step(node.body, at, report, memo), ways: waysAfter }; // a repeated body holding quantifiers is refused by repeatedHazard
  const inner = step(node.body, { total: at.total, uncaught: 0, ways: 1 }, report, memo);
  return { total: Math.max(at.total, inner.total), uncaught: at.uncaught + inner.uncaught, ways: waysAfter };
}

/**
 * Why a regular expression (JavaScript syntax, as compiled with the `u` flag) can backtrack
 * catastrophically, or `undefined` when it is accepted. The rules are conservative — they refuse
 * some harmless patterns (`(?:ab?)+`, `x*y*z`), never a published tokenizer's. A count whose range
 * is above 10 is treated as unbounded: `{0,99}` and `{1,1000}` are `*` and `+` here.
 * - a repeated subpattern (`*`, `+`, `{n,m}` with m > 1) that itself holds a repetition, an
 *   alternation, a backreference or an optional part: `(a+)+`, `(.*a){20}`, `(a{1,50}){1,50}`,
 *   `(a|aa)+`, `((a)\2)+`, `(?:a?a?){16}x` (exponential: its iterations can share the text in
 *   more than one way);
 * - more than two unbounded quantifiers in a row, `a*a*a*b` or `a{0,99}a{0,99}a{0,99}b`, or two
 *   before a part that can fail, `a*a*b` (polynomial: 50 s on 5 000 characters in V8); two that
 *   end the branch, or are followed only by optional parts, are accepted (`\s*[\r\n]+`);
 * - more than 4096 ways to reach a part that can fail, an unbounded quantifier counting 1024:
 *   `a?` thirteen times before `x`, `a{0,10}` four times before `b`, `a?a?a?a*b` (exponential in
 *   the pattern's length);
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
  const report = (reason: string): void => {
    hazard ??= reason;
  };
  const lists: Array<readonly Node[][]> = [top];
  const visit = (node: Node): void => {
    if (node.kind === 'quantifier') {
      if (node.max > 1) {
        const reason = repeatedHazard(node);
        if (reason !== undefined) report(reason);
      }
      visit(node.body);
    } else if (node.kind === 'group') {
      if (node.lookaround) lists.push(node.branches);
      node.branches.forEach((b) => b.forEach(visit));
    }
  };
  top.forEach((b) => b.forEach(visit)); // repeated groups first: theirs is the more specific reason
  if (hazard !== undefined) return hazard;
  const memo = new WeakMap<Node, number>();
  for (const list of lists) for (const branch of list) run(branch, { total: 0, uncaught: 0, ways: 1 }, report, memo);
  return hazard;
}
