/**
 * The voices are listed by plain names (普通话 女声); which engine speaks them is said once where
 * they are chosen, by this line. The offline engine is espeak-ng (the server's ESPEAK_ENGINE
 * label contains its name); any other engine is a configured speech service.
 */
export function voiceEngineNote(voices: ReadonlyArray<{ engine: string }>): string | null {
  if (voices.length === 0) return null;
  const offline = voices.some((voice) => voice.engine.includes('espeak-ng'));
  const services = [
    ...new Set(voices.map((voice) => voice.engine).filter((e) => !e.includes('espeak-ng'))),
  ];
  if (services.length === 0) {
    return '当前语音由离线引擎 espeak-ng 合成，声音较机械；配置语音服务后可使用自然人声';
  }
  const named = services.join('、');
  return offline
    ? `英文名的音色由语音服务 ${named} 合成；普通话、美式英语音色由离线引擎 espeak-ng 合成，声音较机械`
    : `当前语音由语音服务 ${named} 合成`;
}

/**
 * Which engine spoke a speech, in plain words, said once beside the voice's plain name:
 * 「离线合成」 (espeak-ng), 「语音服务合成」, or both when part of a long speech fell back. `engine`
 * is the engine the server answered (a long speech's chunks joined with 、); '' when not told.
 */
export function speechEngineWords(engine: string): string | null {
  const engines = engine
    .split('、')
    .map((name) => name.trim())
    .filter(Boolean);
  if (engines.length === 0) return null;
  const offline = engines.some((name) => name.includes('espeak-ng'));
  const service = engines.some((name) => !name.includes('espeak-ng'));
  if (offline && service) return '语音服务合成（部分离线合成）';
  return offline ? '离线合成' : '语音服务合成';
}
