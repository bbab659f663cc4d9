import { describe, expect, it } from '@jest/globals';
import { hasCjk, overseasTextRefusal } from '../overseas';

describe('the text an overseas video speaks', () => {
  it('passes English and refuses Chinese, naming the way out the installation has', () => {
    expect(overseasTextRefusal('Breathe in slowly. Let the day drift away.', false)).toBeNull();
    expect(hasCjk('Hello，world')).toBe(false);
    expect(overseasTextRefusal('深呼吸，放松肩膀。', false)).toBe(
      '海外版需要英文文案：当前未配置文本模型，无法自动翻译，请粘贴英文文案',
    );
    expect(overseasTextRefusal('Relax. 放松。', true)).toContain('「翻译为英文」');
  });
});
