import { ConvertConfigStep } from '../flows/convert/steps/config-step';

/**
 * `/convertConfig` 反推视频: the reverse video's three steps (source, script, render), the step in
 * the address.
 */
export function ConvertConfigPage() {
  return <ConvertConfigStep />;
}
