// The end-to-end tests drive Debian's Chromium, never a downloaded browser: install it with apt
// when it is missing (the test machines run as root), with a CJK font so the pages and the kept
// screenshots show Chinese text rather than boxes.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CJK_FONT = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';

const missing = [
  ...(existsSync(CHROMIUM) ? [] : ['chromium']),
  ...(existsSync(CJK_FONT) ? [] : ['fonts-wqy-zenhei']),
];
if (missing.length > 0) {
  console.log(`e2e: installing ${missing.join(' ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env });
}
console.log(`e2e: using ${CHROMIUM}`);
