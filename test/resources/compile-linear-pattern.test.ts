import { compileLinearPattern } from 'affordance';

describe('compileLinearPattern', () => {
  it('compiles a pattern that answers in linear time, as RegExp.prototype.test would', () => {
    const compiled = compileLinearPattern('^(a+)+$');
    if (!compiled.ok) throw new Error(compiled.problem);

    expect(compiled.pattern.test('aaa')).toBe(true);
    expect(compiled.pattern.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    const folded = compileLinearPattern('^abc', { ignoreCase: true });
    expect(folded.ok && folded.pattern.test('ABCD')).toBe(true);
  });

  it.each([
    ['^(a)\\1$', 'backreference', "the pattern uses a backreference '\\1'"],
    ['^(?<n>a)\\k<n>$', 'backreference', "the pattern uses a backreference '\\k<name>'"],
    ['a(?=b)', 'lookaround', "the pattern uses a lookahead '(?=...)'"],
    ['(?<!a)b', 'lookaround', "the pattern uses a lookbehind '(?<!...)'"],
    ['(a', 'invalid', 'the pattern is not a valid regular expression'],
    ['a{400}b{400}', 'too-complex', 'the pattern is too complex: it compiles to'],
  ])('refuses %s (%s), naming the construct', (source, refusal, problem) => {
    expect(compileLinearPattern(source)).toEqual({
      ok: false,
      refusal,
      problem: expect.stringContaining(problem) as string,
    });
  });

  it('takes a larger program when maxProgramSize allows it', () => {
    expect(compileLinearPattern('a{400}b{400}', { maxProgramSize: 2000 }).ok).toBe(true);
  });
});
