import { describe, expect, it } from '@jest/globals';
import { REQUEST_FAILED_MESSAGE } from '../../constants';
import { ApiError, errorMessage } from '../errors';

describe('errorMessage', () => {
  it('tells the user what the server or the transport said, else the fallback', () => {
    expect(errorMessage(new ApiError('business', '书名不能为空', 1, 200))).toBe('书名不能为空');
    expect(errorMessage(new ApiError('timeout', '', null, null), '生成超时')).toBe('生成超时');
    // Not one of the SDK's errors: nothing from it reaches the user.
    expect(errorMessage(new Error('TypeError: x is undefined'))).toBe(REQUEST_FAILED_MESSAGE);
    expect(errorMessage('oops', '保存失败')).toBe('保存失败');
  });
});
