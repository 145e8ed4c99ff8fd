-- Headless Neovim (0.7+) as a second LSP client of kube-netlint (used by test/nvim/nvim.test.ts).
-- Attaches `kube-netlint-language-server --stdio` to YAML buffers, prints the diagnostics it receives
-- for the opened file and for OTHER_FILE (not opened: diagnostics pushed for the whole workspace),
-- edits the opened buffer to remove the collision, and prints the diagnostics again.
-- Usage: LSP_BIN=bin/kube-netlint-language-server.js OTHER_FILE=/abs/b.yaml \
--   nvim --headless -i NONE -u lsp.lua /abs/a.yaml -c 'lua Run()'
local bin = assert(os.getenv('LSP_BIN'), 'set LSP_BIN')
local other = assert(os.getenv('OTHER_FILE'), 'set OTHER_FILE')
local timeout_ms = tonumber(os.getenv('LSP_TIMEOUT_MS') or '15000')

local function out(s) io.stdout:write(s .. '\n') end

vim.api.nvim_create_autocmd('FileType', {
  pattern = 'yaml',
  callback = function(args)
    -- vim.lsp.start() exists only from 0.8; 0.7 needs start_client + buf_attach_client.
    local id = vim.lsp.start_client({
      name = 'kube-netlint',
      cmd = { 'node', bin, '--stdio' },
      root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':h'),
      settings = { kubeNetlint = { rules = { ['nodeport-duplicate'] = 'warning' } } },
      -- Neovim 0.7 does not advertise workspace/configuration: push the settings (as nvim-lspconfig does).
      on_init = function(client)
        client.notify('workspace/didChangeConfiguration', { settings = client.config.settings })
      end,
    })
    vim.lsp.buf_attach_client(args.buf, id)
  end,
})

local function print_diagnostics(label, bufnr)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    out(string.format('DIAG %s %d:%d-%d:%d severity=%d source=%s code=%s %s', label, d.lnum + 1, d.col + 1,
      d.end_lnum + 1, d.end_col + 1, d.severity, tostring(d.source), tostring(d.code), d.message))
  end
end

function Run()
  local buf = vim.api.nvim_get_current_buf()
  local other_buf = vim.uri_to_bufnr(vim.uri_from_fname(other))
  local t0 = vim.loop.hrtime()
  -- Wait until both files have diagnostics at the configured severity (the settings pushed in on_init
  -- arrive after the first analysis, which is then re-published).
  local function settled(bufnr)
    local list = vim.diagnostic.get(bufnr)
    if #list == 0 then return false end
    for _, d in ipairs(list) do
      if d.severity ~= vim.diagnostic.severity.WARN then return false end
    end
    return true
  end
  local ok = vim.wait(timeout_ms, function() return settled(buf) and settled(other_buf) end, 10)
  out(string.format('RECEIVED %s after %d ms', tostring(ok), (vim.loop.hrtime() - t0) / 1e6))
  print_diagnostics('opened', buf)
  print_diagnostics('other', other_buf)
  -- Hover on the nodePort value of line 15 (0-based 14).
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/hover',
    { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = 14, character = 18 } }, timeout_ms)
  for _, r in pairs(res or {}) do
    if r.result and r.result.contents then
      out('HOVER ' .. (r.result.contents.value or ''):gsub('\n', ' | '))
    end
  end
  -- Code actions for the diagnostic on line 15, as Neovim hands them back (Diagnostic.data included).
  local actions = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = 14, character = 16 }, ['end'] = { line = 14, character = 21 } },
    context = { diagnostics = vim.lsp.diagnostic.get_line_diagnostics(buf, 14) },
  }, timeout_ms)
  for _, r in pairs(actions or {}) do
    for _, a in ipairs(r.result or {}) do
      out(string.format('ACTION %s preferred=%s', a.title, tostring(a.isPreferred)))
    end
  end
  -- Edit: move the nodePort away; both files must clear.
  vim.api.nvim_buf_set_lines(buf, 14, 15, false, { '      nodePort: 30081' })
  local cleared = vim.wait(timeout_ms, function()
    return #vim.diagnostic.get(buf) == 0 and #vim.diagnostic.get(other_buf) == 0
  end, 10)
  out(string.format('AFTER EDIT opened=%d other=%d', #vim.diagnostic.get(buf), #vim.diagnostic.get(other_buf)))
  for _, c in pairs(vim.lsp.get_active_clients()) do c.stop() end
  out((ok and cleared) and 'NVIM DONE' or 'NVIM TIMEOUT')
  vim.cmd((ok and cleared) and 'qa!' or 'cq!')
end
