import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const BIN = join(ROOT, 'bin/kube-netlint-language-server.js');
const WORKSPACE = join(ROOT, 'test/fixtures/lsp/collision');

/**
 * Neovim (Debian's 0.7) as a second, independent LSP client: it starts the packaged
 * `kube-netlint-language-server --stdio` (the esbuild bundle dist/server.js), and prints what it received.
 * test/nvim/install-neovim.sh installs neovim when it is missing (apt, idempotent).
 */
describe('Neovim as an LSP client (headless)', function () {
  this.timeout(300000);
  let output = '';

  before(function () {
    const install = spawnSync('bash', [join(ROOT, 'test/nvim/install-neovim.sh')], { encoding: 'utf8', timeout: 280000 });
    assert.equal(install.status, 0, `install-neovim.sh failed: ${install.stdout}${install.stderr}`);
    assert.ok(existsSync(join(ROOT, 'dist/server.js')), 'dist/server.js is missing: run `npm run build` first (npm test does)');
    const home = mkdtempSync(join(tmpdir(), 'kube-netlint-nvim-'));
    try {
      const run = spawnSync('nvim', ['--headless', '-i', 'NONE', '-u', join(ROOT, 'test/nvim/lsp.lua'), join(WORKSPACE, 'a.yaml'), '-c', 'lua Run()'], {
        cwd: WORKSPACE,
        encoding: 'utf8',
        timeout: 60000,
        env: {
          ...process.env,
          LSP_BIN: BIN,
          OTHER_FILE: join(WORKSPACE, 'b.yaml'),
          // Keep Neovim's state and LSP log out of the real home directory.
          XDG_CONFIG_HOME: join(home, 'c'), XDG_DATA_HOME: join(home, 'd'), XDG_STATE_HOME: join(home, 's'), XDG_CACHE_HOME: join(home, 'k'),
        },
      });
      output = `${run.stdout}${run.stderr}`;
      assert.equal(run.status, 0, `nvim failed (status ${run.status}):\n${output}`);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  const lines = (prefix: string): string[] => output.split('\n').filter((l) => l.startsWith(prefix));

  it('receives the collision in the opened file and in the file it never opened, with the configured severity', () => {
    assert.match(output, /RECEIVED true after \d+ ms/);
    const opened = lines('DIAG opened ');
    const other = lines('DIAG other ');
    assert.equal(opened.length, 1, output);
    assert.equal(other.length, 1, output);
    // severity=2 (Warning): kubeNetlint.rules from Neovim's `settings` (workspace/configuration) lowered it from error.
    assert.match(opened[0], /^DIAG opened 15:17-15:22 severity=2 source=kube-netlint code=nodeport-duplicate nodePort 30080 is also claimed by Service team-b\/web-b/);
    assert.match(other[0], /^DIAG other 14:17-14:22 severity=2 source=kube-netlint code=nodeport-duplicate nodePort 30080 is also claimed by Service team-a\/web-a/);
  });

  it('gets a hover naming the other Service', () => {
    const [hover] = lines('HOVER ');
    assert.ok(hover, output);
    assert.match(hover, /\*\*nodePort 30080\*\*/);
    assert.match(hover, /Service team-b\/web-b — \[b\.yaml:14\]/);
  });

  it('gets the quick fix and the two ignore actions for the diagnostic it stored', () => {
    assert.deepEqual(lines('ACTION '), [
      'ACTION Change nodePort 30080 to free port 30000 preferred=true',
      'ACTION Ignore nodeport-duplicate for this object preferred=nil',
      'ACTION Ignore nodeport-duplicate on this line preferred=nil',
    ]);
  });

  it('sees both files clear after an edit in the buffer', () => {
    assert.match(output, /AFTER EDIT opened=0 other=0/);
    assert.match(output, /NVIM DONE/);
  });
});
