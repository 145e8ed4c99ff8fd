import { LineIndex } from '../source/line-index';
import type { LoadedFile } from './load-file';

/** Why a file was not parsed. */
export type SkipReason = 'too-large' | 'unreadable' | 'template' | 'not-regular' | 'dangling-link';

/**
 * A file that is listed but not parsed, with one problem explaining why (reported by the
 * `file-skipped` rule), so nothing is skipped silently.
 */
export function skippedFile(file: string, reason: SkipReason, detail: string, severity: 'info' | 'error' = 'info'): LoadedFile {
  return {
    file,
    text: '',
    lines: LineIndex.of(''),
    objects: [],
    problems: [{ span: { file, start: 0, end: 0 }, message: detail, code: `FILE_${reason.toUpperCase().replace(/-/g, '_')}`, severity }],
    suppressions: new Map(),
  };
}
