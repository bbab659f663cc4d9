import { useState } from 'react';
import { App } from 'antd';
import { errorMessage } from '@kol/shared-sdk';
import { scriptProblem, type ConvertDraftUpdate, type KeptConvertDraft } from '../convert-flow';
import { extractScript } from './script-calls';
import { useRewriteScript } from './use-rewrite-script';

/**
 * The reverse video's script actions: read from the clip (重新提取, and on leaving the first
 * step), rewritten by the writing engine (改写文案) and the rewrite undone (撤销改写). A script
 * that cannot be rewritten says why through `setProblem`, as the page's other checks do.
 */
export function useConvertScript(
  draft: KeptConvertDraft,
  update: ConvertDraftUpdate,
  setProblem: (problem: string | null) => void,
) {
  const { message } = App.useApp();
  const [extracting, setExtracting] = useState(false);
  const [rewriting, setRewriting] = useState(false);
  const [beforeRewrite, setBeforeRewrite] = useState<string | null>(null);
  const rewriteScript = useRewriteScript();

  const extract = async (): Promise<boolean> => {
    if (!draft.source) return false;
    setExtracting(true);
    try {
      const extracted = await extractScript(draft.source.url);
      update((current) => ({
        ...current,
        extracted,
        // The user's typing wins; an empty box takes what the video says.
        script: current.script.trim() ? current.script : extracted.script,
      }));
      return true;
    } catch (reason) {
      void message.error(`提取脚本失败：${errorMessage(reason)}`);
      return false;
    } finally {
      setExtracting(false);
    }
  };

  const rewrite = async () => {
    const found = scriptProblem(draft.script);
    if (found) {
      setProblem(found);
      return;
    }
    setRewriting(true);
    try {
      const original = draft.script;
      const { text, engine } = await rewriteScript(original);
      // Never an empty script in place of the user's (the server refuses one; this is the
      // page's own guard), and an unchanged one is said as such, not as a rewrite.
      if (!text.trim()) {
        void message.error('改写没有得到任何文字，文案保持不变');
        return;
      }
      if (text.trim() === original.trim()) {
        void message.info(`${engine} 没有找到可以替换的词语，文案保持不变`);
        return;
      }
      setBeforeRewrite(original);
      update((current) => ({ ...current, script: text }));
      void message.success(`已由 ${engine} 改写，可继续修改`);
    } catch (reason) {
      void message.error(
        reason instanceof Error && reason.message ? reason.message : errorMessage(reason),
      );
    } finally {
      setRewriting(false);
    }
  };

  /** 撤销改写: the script as it was before the last rewrite. */
  const undoRewrite = () => {
    if (beforeRewrite === null) return;
    update((current) => ({ ...current, script: beforeRewrite }));
    setBeforeRewrite(null);
  };

  return { extracting, rewriting, beforeRewrite, extract, rewrite, undoRewrite };
}
