import { Transform, TransformCallback } from 'node:stream';

/** Header blocks are a few dozen bytes; a longer one is not a header. */
const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /(^|\r\n)content-length[ \t]*:/i;

/**
 * Keeps the LSP base protocol's framing (`Content-Length: N\r\n\r\n` + N bytes) on a byte stream before
 * vscode-jsonrpc reads it. vscode-jsonrpc's stream reader, given a header block without a valid Content-Length,
 * reports an error but leaves the message body in its buffer, where it is read as the next header: every later
 * message is mis-framed and the server answers nothing, not even `exit`. This guard drops such a frame (with a
 * log line) and skips to the next `Content-Length` header, so the server goes on serving. Valid frames pass
 * through byte for byte; message bodies are streamed, never buffered here.
 * Source: LSP 3.17 base protocol (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/#headerPart).
 */
export class FrameGuard extends Transform {
  private header: Buffer = Buffer.alloc(0);
  /** Body bytes still to pass through for the current frame. */
  private bodyLeft = 0;
  /** After a bad frame: skipping bytes until a Content-Length header starts. */
  private skipping = false;

  constructor(private readonly onDrop: (reason: string) => void) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data: Buffer = chunk;
    while (data.length) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, data.length);
        this.push(data.subarray(0, n));
        this.bodyLeft -= n;
        data = data.subarray(n);
        continue;
      }
      this.header = this.header.length ? Buffer.concat([this.header, data]) : data;
      data = Buffer.alloc(0);
      if (this.skipping) {
        const text = this.header.toString('latin1');
        const m = /content-length[ \t]*:/i.exec(text);
        if (!m) {
          this.header = this.header.subarray(Math.max(0, this.header.length - 20)); // a header may start across chunks
          break;
        }
        this.header = this.header.subarray(m.index);
        this.skipping = false;
      }
      const end = this.header.indexOf(HEADER_END);
      if (end < 0) {
        if (this.header.length > MAX_HEADER_BYTES) this.dropFrame(`a header block longer than ${MAX_HEADER_BYTES} bytes`, this.header.length);
        break;
      }
      const headerText = this.header.subarray(0, end).toString('latin1');
      const rest = this.header.subarray(end + HEADER_END.length);
      const length = CONTENT_LENGTH.test(headerText) ? /content-length[ \t]*:[ \t]*(\d+)[ \t]*(\r\n|$)/i.exec(headerText) : null;
      if (!length) {
        this.header = Buffer.alloc(0);
        this.dropFrame(`a message whose header has no valid Content-Length (${JSON.stringify(headerText.slice(0, 80))})`, 0);
        data = rest;
        continue;
      }
      this.push(this.header.subarray(0, end + HEADER_END.length));
      this.header = Buffer.alloc(0);
      this.bodyLeft = Number(length[1]);
      data = rest;
    }
    done();
  }

  private dropFrame(reason: string, skip: number): void {
    this.onDrop(`kube-netlint: dropped ${reason}; skipping to the next message`);
    this.header = this.header.subarray(skip);
    this.skipping = true;
  }
}
