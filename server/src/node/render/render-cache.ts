import { createHash, Hash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Outputs of successful renderer runs by a digest of everything the run reads (argv, tool version, file contents),
 * kept in memory by the language server: a save that changes nothing, a settings change that re-renders every
 * folder, and — for the sentinel render of a Helm release (core/render/helm-values.ts) — a values edit that only
 * changes numbers re-use the output instead of running helm again. Least recently used entries go first, within
 * `maxEntries` entries and `maxBytes` UTF-16 code units of output. Failures are never kept (the tool says why each
 * time, and a retry after a fix must run).
 */
export class RenderCache {
  private readonly entries = new Map<string, string>();
  private size = 0;
  /** Lookups answered and missed (for the log and tests). */
  hits = 0;
  misses = 0;

  constructor(private readonly maxEntries = 256, private readonly maxBytes = 64 * 1024 * 1024) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.entries.delete(key); // most recently used last
    this.entries.set(key, value);
    return value;
  }

  set(key: string, value: string): void {
    if (value.length > this.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.size -= old.length;
      this.entries.delete(key);
    }
    this.entries.set(key, value);
    this.size += value.length;
    for (const [k, v] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.size <= this.maxBytes) break;
      this.entries.delete(k);
      this.size -= v.length;
    }
  }
}

/** Limits of one digest: a bigger tree is not cached (the renderer just runs). */
const MAX_FILES = 5000;
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * A SHA-256 digest of a renderer run's inputs: strings, and files as the renderer will read them — from `overlay`
 * (absolute path → text, the editor's unsaved buffers written for the run) when there, else from disk (following
 * symbolic links, as helm does). `transformOf` may give, for a file, a rewrite of its text before it is hashed
 * (values files, see sentinelNeutralText); other files are hashed byte for byte. `ok` turns false when a tree is
 * too big to be worth it.
 */
export class InputDigest {
  private readonly hash: Hash = createHash('sha256');
  private files = 0;
  private bytes = 0;
  ok = true;

  constructor(private readonly overlay: ReadonlyMap<string, string> = new Map(), private readonly transformOf: (absPath: string) => ((text: string) => string) | undefined = () => undefined) {}

  add(...parts: readonly string[]): this {
    for (const p of parts) this.hash.update(`${p.length}:${p}\u0000`);
    return this;
  }

  /** A file's content (missing: a marker, so its appearance changes the digest). */
  addFile(absPath: string): this {
    this.files++;
    const transform = this.transformOf(absPath);
    let text = this.overlay.get(absPath);
    if (text === undefined) {
      try {
        const buf = readFileSync(absPath);
        this.bytes += buf.length;
        if (this.bytes > MAX_BYTES || this.files > MAX_FILES) this.ok = false;
        if (!transform) {
          this.add('bytes', absPath, String(buf.length));
          this.hash.update(buf);
          return this;
        }
        text = buf.toString('utf8');
      } catch {
        return this.add('missing', absPath);
      }
    }
    if (transform) return this.add('text', absPath, transform(text));
    // As the same text read from disk.
    this.add('bytes', absPath, String(Buffer.byteLength(text, 'utf8')));
    this.hash.update(text, 'utf8');
    return this;
  }

  /** Every file below a folder (names sorted, `.git` left out), at most `depth` levels deep. */
  addTree(absDir: string, depth = 16): this {
    let names: string[];
    try {
      names = readdirSync(absDir).sort();
    } catch {
      return this.add('missing', absDir);
    }
    this.add('dir', absDir, String(names.length));
    for (const name of names) {
      if (!this.ok) return this;
      if (name === '.git') continue;
      const p = join(absDir, name);
      let dir = false;
      try {
        dir = statSync(p).isDirectory();
      } catch {
        this.add('missing', p);
        continue;
      }
      if (dir) {
        if (depth > 0) this.addTree(p, depth - 1);
        else this.ok = false;
      } else this.addFile(p);
    }
    // Buffers of files that are not on disk yet.
    for (const p of [...this.overlay.keys()].sort()) if (p.startsWith(`${absDir}/`) && !names.includes(p.slice(absDir.length + 1).split('/')[0])) this.addFile(p);
    return this;
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}
