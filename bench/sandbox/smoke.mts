import { mkdtempSync } from 'node:fs';
import { DockerSandbox } from '../../src/main/sandbox/docker-sandbox.ts';
import { dockerClient } from '../../src/main/sandbox/engine.ts';
import { sandboxIdentity } from '../../src/main/sandbox/container-spec.ts';
import { SandboxSettingsSchema } from '../../src/main/sandbox/sandbox-settings.ts';
const ws = mkdtempSync('/tmp/smoke/ws-');
const sb = new DockerSandbox({
  docker: dockerClient(),
  sessionId: 'smoke',
  workspace: ws,
  settings: SandboxSettingsSchema.parse({}),
  identity: sandboxIdentity(),
});
let t = performance.now();
const { driver: py } = await sb.acquirePython();
let r = await py.run('print(1)', { timeoutMs: 5000 });
console.log('cold', performance.now() - t, r);
for (let i = 0; i < 5; i++) {
  t = performance.now();
  const a = await sb.acquirePython();
  r = await a.driver.run('print(1)', { timeoutMs: 5000 });
  await sb.release();
  console.log('warm', (performance.now() - t).toFixed(2));
}
r = await py.run('import matplotlib.pyplot as plt\nplt.plot([1,2,3])\nopen("/workspace/a.txt","w").write("hi")', {
  timeoutMs: 20000,
});
console.log(
  r.output,
  r.images.map((i) => [i.path, i.data.length]),
);
const { driver: sh } = await sb.acquireShell();
for (let i = 0; i < 5; i++) {
  t = performance.now();
  const tr = await sh.run('echo 1', { maxWaitMs: 5000, idleMs: 1000 });
  console.log('bash', (performance.now() - t).toFixed(2), tr);
}
console.log(await sh.run('cd /tmp; export Y=3; id; ls -la /workspace', { maxWaitMs: 5000 }));
console.log(await sh.run('pwd; echo $Y; echo start; sleep 2; echo end', { maxWaitMs: 5000, idleMs: 1000 }));
console.log(await sh.wait({ maxWaitMs: 5000 }));
await sb.release();
await sb.destroy();
