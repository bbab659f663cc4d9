import { Button, Empty, Flex, Typography } from 'antd';

interface TitleIdeasProps {
  /** The titles mode's output: one idea a line (numbering and quotes are dropped). */
  text: string;
  chosen: string;
  onChoose: (title: string) => void;
}

export function titlesOf(text: string): string[] {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/^\s*(?:\d+[.、)）]|[-*•])\s*/, '')
        .replace(/^[《“"]|[》”"]$/g, '')
        .trim(),
    )
    .filter(Boolean);
}

/** 标题建议: the ideas the model offered; one becomes the title the text is saved under. */
export function TitleIdeas({ text, chosen, onChoose }: TitleIdeasProps) {
  const titles = titlesOf(text);
  if (titles.length === 0) return <Empty description="选择“标题建议”模式生成标题" />;
  return (
    <Flex vertical gap={8} data-testid="title-ideas">
      {titles.map((title, index) => (
        <Flex key={`${index}-${title}`} justify="space-between" align="center" gap={8}>
          <Typography.Text>{title}</Typography.Text>
          <Button
            size="small"
            type={title === chosen ? 'primary' : 'default'}
            aria-label={`用作标题 ${title}`}
            onClick={() => onChoose(title)}
          >
            {title === chosen ? '已选用' : '用作标题'}
          </Button>
        </Flex>
      ))}
    </Flex>
  );
}
