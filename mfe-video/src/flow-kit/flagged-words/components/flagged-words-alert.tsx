import { Alert, Button, Flex, Typography } from 'antd';
import type { FlaggedWord } from '../flagged-words';

interface FlaggedWordsAlertProps {
  flagged: FlaggedWord[];
  onReplace: (word: string, replacement: string) => void;
  error: string | null;
}

/**
 * Words a platform may flag, found before anything is spent: each with its safer wording and a
 * button that replaces it in every shot. The server checks again before it spends a count.
 */
export function FlaggedWordsAlert({ flagged, onReplace, error }: FlaggedWordsAlertProps) {
  if (error) {
    return <Alert type="warning" showIcon title={`违禁词表加载失败（${error}），生成时仍会检查`} />;
  }
  if (flagged.length === 0) return null;
  const total = flagged.reduce((sum, item) => sum + item.count, 0);
  return (
    <Alert
      type="warning"
      showIcon
      title={`发现 ${total} 处平台可能限流的词，建议替换后再生成`}
      description={
        <Flex vertical gap={4}>
          {flagged.map((item) => (
            <Flex key={item.word} gap={8} align="center" wrap>
              <Typography.Text>
                「{item.word}」{item.count > 1 ? ` ×${item.count}` : ''} → 「{item.replacement}」
              </Typography.Text>
              <Button size="small" onClick={() => onReplace(item.word, item.replacement)}>
                替换「{item.word}」
              </Button>
            </Flex>
          ))}
          <Button
            size="small"
            type="primary"
            style={{ alignSelf: 'flex-start' }}
            onClick={() => flagged.forEach((item) => onReplace(item.word, item.replacement))}
          >
            全部替换
          </Button>
        </Flex>
      }
    />
  );
}
