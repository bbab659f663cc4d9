import { Typography } from 'antd';
import { useTextModel } from '@kol/shared-sdk/ui';

/**
 * Said before the click when the installation has no text model: the local engine writes, and
 * what it can do (sentences taken from the source, template lines, word swaps) is not what a
 * model does. Nothing while the answer is unknown or a model is configured.
 */
export function LocalEngineNote() {
  const textModel = useTextModel();
  if (textModel !== false) return null;
  return (
    <Typography.Text type="secondary" data-testid="local-engine-note">
      未配置文本模型：由本地引擎写作，摘取原文句子并套用模板，改写只替换常用词语，不会创作新的情节。
    </Typography.Text>
  );
}
