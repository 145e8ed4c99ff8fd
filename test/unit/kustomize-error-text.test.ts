import { strict as assert } from 'node:assert';
import { kustomizeErrorText } from '../../server/out/core/render/errors';

// kustomize's messages as v5.4 prints them for a build of kube-netlint's wrapper kustomization (paths absolute).
const toRepo = (abs: string): string => abs.replace(/^\/repo\/?/, '') || '.';
const layer = (entry: string, dir: string, inner: string): string =>
  `accumulating resources: accumulation err='accumulating resources from '${entry}': '${dir}' must resolve to a file': recursed accumulation of path '${dir}': ${inner}`;

describe('kustomizeErrorText', () => {
  it('drops the wrapper layer and keeps kustomize\'s own message', () => {
    const smp = 'no resource matches strategic merge patch "Service.v1.[noGrp]/typo.[noNs]": no matches for Id Service.v1.[noGrp]/typo.[noNs]';
    assert.equal(kustomizeErrorText(layer('../../../../repo', '/repo', smp), toRepo, '.'), smp);
  });

  it('names the nested folder and shortens a missing resource to one repository path', () => {
    const missing = "accumulating resources: accumulation err='accumulating resources from 'missing.yaml': evalsymlink failure on '/repo/base/missing.yaml' : lstat /repo/base/missing.yaml: no such file or directory': must build at directory: not a valid directory: evalsymlink failure on '/repo/base/missing.yaml' : lstat /repo/base/missing.yaml: no such file or directory";
    const text = layer('../repo/ov', '/repo/ov', layer('../base', '/repo/base', missing));
    assert.equal(kustomizeErrorText(text, toRepo, 'ov'), "in base: accumulating resources from 'missing.yaml': lstat base/missing.yaml: no such file or directory");
  });

  it('leaves a message without layers as it is, apart from absolute paths', () => {
    assert.equal(kustomizeErrorText('invalid Kustomization: json: cannot unmarshal array', toRepo, 'ov'), 'invalid Kustomization: json: cannot unmarshal array');
    assert.equal(kustomizeErrorText("couldn't read /repo/ov/x.yaml: bad", toRepo, 'ov'), "couldn't read ov/x.yaml: bad");
  });
});
