import type { LoadedFile } from '../../load/load-file';
import type { ServiceObject } from '../../model/objects';
import type { WorkspaceModel } from '../../model/workspace-model';
import { servicesNamed } from '../../model/views/services-named';

/**
 * The first Service named `name` in `namespace` that the API server rejects (`model.rejectedServicesIn`), for a
 * reference that finds no accepted Service of that name: such a Service is in the workspace but never created, which
 * is not the "deployed from elsewhere" case. Undefined when there is none.
 */
export function rejectedServiceNamed(model: WorkspaceModel, namespace: string, name: string): ServiceObject | undefined {
  const rejected = model.rejectedServicesIn?.(namespace);
  return rejected?.length ? servicesNamed(rejected, name)[0] : undefined;
}

/**
 * Where a rejected Service is, for a message: `a.yaml line 3` (the line of its metadata.name), or the file alone
 * when its text is not loaded. A related location cannot carry it: a finding whose related locations all lie in
 * rejected objects is left out (core/engine/run-rules.ts).
 */
export function rejectedServiceWhere(svc: ServiceObject, files: ReadonlyMap<string, LoadedFile> | undefined): string {
  const file = files?.get(svc.file);
  return file ? `${svc.file} line ${file.lines.position(svc.span.start).line}` : svc.file;
}
