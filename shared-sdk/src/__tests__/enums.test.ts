import { describe, expect, it } from '@jest/globals';
import {
  AssetSource,
  ConfigType,
  CreationFlag,
  MODAL_DEFAULT_WIDTH,
  MOBILE_BREAKPOINT_PX,
  NOTICE_PAGE_SIZE,
  NarrowProjectType,
  OVERSEAS_PROJECT_TYPES,
  POSTING_ACCOUNT_PROMPT_DELAY_MS,
  ProjectType,
  REQUEST_TIMEOUT_MS,
  TemplateId,
  USER_INFO_DEFAULTS,
  isOverseasProjectType,
} from '..';

// Imported from the package root on purpose: it re-exports these through two paths.
describe('enumerations and constants of spec sections 3 and 9', () => {
  it('numbers the project types as the spec does', () => {
    expect(ProjectType).toEqual({
      comics: 0,
      decompression: 1,
      scroll: 2,
      convert: 3,
      market: 4,
      comicsOverseas: 5,
      decompressionOverseas: 6,
      realOpera: 8,
      animeShorts: 11,
    });
    expect(NarrowProjectType).toEqual({
      comics: 0,
      decompression: 1,
      convert: 2,
      market: 4,
      realOpera: 8,
    });
    expect([...OVERSEAS_PROJECT_TYPES].sort()).toEqual([5, 6, 8]);
    expect(isOverseasProjectType(ProjectType.realOpera)).toBe(true);
    expect(isOverseasProjectType(ProjectType.comics)).toBe(false);
  });

  it('numbers flags, sources, template ids and config types', () => {
    expect(CreationFlag).toEqual({ draft: 0, creation: 1 });
    expect(AssetSource).toEqual({
      cloud: 0,
      local: 1,
      localSuccess: 2,
      editingTool: 3,
      textToSpeech: 4,
    });
    expect(Object.values(TemplateId)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(ConfigType.assistant).toBe(0);
    expect(ConfigType.template).toBe(1);
    expect([ConfigType.imageStyle, ConfigType.voice, ConfigType.music]).toEqual([2, 3, 4]);
  });

  it('gives user info the spec defaults', () => {
    expect(USER_INFO_DEFAULTS).toMatchObject({
      status: -1,
      functionalLevel: 0,
      questionnaire: -1,
      feedback: 1,
      templateIds: [],
    });
  });

  it('keeps the business constants', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(240_000);
    expect(NOTICE_PAGE_SIZE).toBe(1000);
    expect(MOBILE_BREAKPOINT_PX).toBe(768);
    expect(MODAL_DEFAULT_WIDTH).toBe(520);
    expect(POSTING_ACCOUNT_PROMPT_DELAY_MS).toBe(20);
  });
});
