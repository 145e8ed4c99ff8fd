/**
 * One shared copy of each equal string. Strings that cross a thread boundary or come out of the parse cache are
 * new copies every time (structured clone and v8 deserialization write and allocate each occurrence again), so a
 * 10,000-file workspace holds hundreds of thousands of copies of `TCP`, `http`, `apps/v1`, label keys and
 * environment variable names; handing every occurrence the pool's copy lets the others be collected. Strings are
 * values in JavaScript (equal strings are indistinguishable), so a pooled string changes nothing a reader sees.
 */
export class StringPool {
  private readonly strings = new Map<string, string>();

  /**
   * @param maxLength longer strings are returned as they are (long values are seldom repeated, and each would
   *   cost the pool an entry)
   * @param maxSize the pool starts over when it holds this many strings, so memory stays bounded in a
   *   long-running process (strings already handed out stay shared)
   */
  constructor(private readonly maxLength = 256, private readonly maxSize = 500_000) {}

  /** The pool's copy of `s` (`s` itself the first time it is seen). */
  intern(s: string): string {
    if (s.length > this.maxLength) return s;
    const pooled = this.strings.get(s);
    if (pooled !== undefined) return pooled;
    if (this.strings.size >= this.maxSize) this.strings.clear();
    this.strings.set(s, s);
    return s;
  }
}
