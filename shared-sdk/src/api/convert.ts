import type { convertEndpoints } from '../contracts/convert';
import { defineCall } from './define-call';

type E = typeof convertEndpoints;

export const extractConvertScript = defineCall<E['convertScript']>(
  'POST',
  '/api/video/convert_script',
);
