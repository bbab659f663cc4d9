import { Alert, Card, Flex, Radio, Spin, Typography } from 'antd';
import { mediaUrl, type VideoTemplate } from '@kol/shared-sdk';

interface TemplatePickerProps {
  templates: VideoTemplate[] | null;
  error: string | null;
  value: number | null;
  onChange: (id: number) => void;
}

/** 营销模板 (`get_templates`): each with its cover, what it is for and what it asks. */
export function TemplatePicker({ templates, error, value, onChange }: TemplatePickerProps) {
  if (error) return <Alert type="error" showIcon title={`营销模板加载失败：${error}`} />;
  if (!templates) return <Spin aria-label="正在加载营销模板" />;
  return (
    <Radio.Group
      aria-label="营销模板"
      value={value}
      onChange={(event) => onChange(Number(event.target.value))}
    >
      <Flex wrap gap={12}>
        {templates.map((t) => (
          <Card key={t.id} size="small" style={{ width: 220 }}>
            <Radio value={t.id} aria-label={t.name}>
              <Flex vertical gap={6}>
                {t.coverUrl ? (
                  <img
                    src={mediaUrl(t.coverUrl)}
                    alt={`${t.name}的封面`}
                    style={{ width: 170, height: 96, objectFit: 'cover', borderRadius: 4 }}
                  />
                ) : (
                  // The server's built-in templates have no cover picture: one is drawn here.
                  <div
                    role="img"
                    aria-label={`${t.name}的封面`}
                    style={{
                      width: 170,
                      height: 96,
                      borderRadius: 4,
                      display: 'flex',
                      alignItems: 'center',
                      justifyContent: 'center',
                      color: '#fff',
                      fontWeight: 700,
                      fontSize: 18,
                      background: `linear-gradient(135deg, hsl(${(t.id * 67) % 360} 60% 45%), #2a1f5c)`,
                    }}
                  >
                    {t.name}
                  </div>
                )}
                <Typography.Text strong>{t.name}</Typography.Text>
                <Typography.Text type="secondary">{t.description}</Typography.Text>
                <Typography.Text type="secondary">
                  需填写：{t.fields.map((f) => `${f.label}${f.required ? '*' : ''}`).join('、')}
                </Typography.Text>
              </Flex>
            </Radio>
          </Card>
        ))}
      </Flex>
    </Radio.Group>
  );
}
