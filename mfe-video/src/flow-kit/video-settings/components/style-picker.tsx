import { mediaUrl } from '@kol/shared-sdk';
import { Alert, Button, Card, Col, Radio, Row, Skeleton, Typography } from 'antd';
import { useImageStyles } from '../api/use-image-styles';

/** No style: the pictures are drawn from the shot's words alone. */
export const NO_STYLE = 0;

interface StylePickerProps {
  value: number;
  onChange: (styleId: number) => void;
}

/**
 * 画风: the built-in styles with what each looks like. The server ships no preview pictures
 * (`coverUrl` is empty), so a style shows its description; a cover is shown when there is one.
 */
export function StylePicker({ value, onChange }: StylePickerProps) {
  const { styles, loading, error, reload } = useImageStyles();
  if (loading) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title={`画风加载失败：${error}`}
        action={
          <Button size="small" onClick={reload}>
            重新加载
          </Button>
        }
      />
    );
  }
  const options = [
    { id: NO_STYLE, name: '不指定画风', description: '按分镜内容自由绘制', coverUrl: '' },
    ...styles,
  ];
  return (
    <Radio.Group
      aria-label="画风"
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
      style={{ width: '100%' }}
    >
      <Row gutter={[8, 8]}>
        {options.map((style) => (
          <Col key={style.id} xs={24} sm={12} md={8}>
            <Card size="small" style={{ height: '100%' }}>
              {style.coverUrl && (
                <img
                  src={mediaUrl(style.coverUrl)}
                  alt={`${style.name}示例`}
                  style={{ width: '100%', borderRadius: 6, marginBottom: 6 }}
                />
              )}
              <Radio value={style.id}>{style.name}</Radio>
              <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0', fontSize: 12 }}>
                {style.description}
              </Typography.Paragraph>
            </Card>
          </Col>
        ))}
      </Row>
    </Radio.Group>
  );
}
