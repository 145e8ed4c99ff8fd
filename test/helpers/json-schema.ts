import Ajv04 from 'ajv-draft-04';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';

/** Errors of a validation as `path: message` lines (empty when valid). */
export function schemaErrors(validate: ValidateFunction, value: unknown): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message} ${JSON.stringify(e.params)}`);
}

let sarif: ValidateFunction | undefined;

/** The official SARIF 2.1.0 schema (`sarif-2.1.0-rtm.5.json`, draft-04, as shipped by @microsoft/jest-sarif), compiled once. */
export function sarifValidator(): ValidateFunction {
  if (!sarif) {
    const file = join(require.resolve('@microsoft/jest-sarif/package.json'), '..', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
    const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false }) // the schema's language pattern is not valid with the u flag;
    addFormats(ajv);
    sarif = ajv.compile(JSON.parse(readFileSync(file, 'utf8')));
  }
  return sarif;
}

/** A validator for a draft-07 schema, strict (unknown keywords are errors) except for the editors' `markdownDescription`. */
export function validator07(schema: object): ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addKeyword('markdownDescription');
  addFormats(ajv);
  return ajv.compile(schema);
}
