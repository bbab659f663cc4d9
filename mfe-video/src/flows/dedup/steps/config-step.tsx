import { useState } from 'react';
import { Alert, App, Button, Card, Col, Flex, Radio, Row, Skeleton, Tag, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { canUseProjectType, type DedupPresets, errorMessage } from '@kol/shared-sdk';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { PageFrame } from '../../../components/page-frame';
import { useSavedPresets } from '../../../flow-kit/dedup-presets/api/use-saved-presets';
import { DedupPresetsForm } from '../../../flow-kit/dedup-presets/components/dedup-presets-form';
import { NoPermission } from '../../../flow-kit/no-permission';
import { SourceVideoCard } from '../../../flow-kit/source-video/components/source-video-card';
import { usePhoneLayout } from '../../../lib/phone';
import { useDedupPreview } from '../api/use-dedup-preview';
import { DedupPreviewFrames } from '../components/dedup-preview-frames';
import { CONVERT_TYPE, readDedupEdit, samePresets, writeDedupEdit } from '../dedup-flow';
import type { DedupEdit } from '../draft';

function DedupConfigForm() {
  const { message } = App.useApp();
  const phone = usePhoneLayout();
  const { saved, error, save, reload } = useSavedPresets();
  const [edit, setEdit] = useState<DedupEdit>(readDedupEdit);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const change = (patch: Partial<DedupEdit>) =>
    setEdit((current) => {
      const next = { ...current, ...patch };
      writeDedupEdit(next);
      return next;
    });
  const presets: DedupPresets = edit.presets ?? saved ?? {};
  const preview = useDedupPreview(edit.clip?.url ?? null, presets, edit.aspect);

  if (error) {
    return (
      <Alert
        type="error"
        showIcon
        title={error}
        action={
          <Button size="small" onClick={reload}>
            重新加载
          </Button>
        }
      />
    );
  }
  if (!saved) return <Skeleton active />;
  const unsaved = !samePresets(presets, saved);

  const store = async () => {
    setSaving(true);
    try {
      // Saved, or the person chose the presets saved elsewhere: either way the page shows the
      // saved ones now.
      const stored = await save(presets);
      change({ presets: null });
      if (stored) void message.success('去重设置已保存，反推视频可直接使用');
    } catch (reason) {
      void message.error(`保存失败：${errorMessage(reason)}`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <PageFrame
      title="视频去重 · 去重设置"
      extra={unsaved ? <Tag color="warning">有未保存的修改</Tag> : <Tag>已保存</Tag>}
      actions={
        <Flex gap={8}>
          <Button disabled={!unsaved} onClick={() => change({ presets: null })}>
            恢复已保存的设置
          </Button>
          <Button
            type="primary"
            size={phone ? 'large' : 'middle'}
            loading={saving}
            disabled={uploading}
            onClick={() => void store()}
          >
            保存设置
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        设置一次，反推视频和单条视频去重都可以使用。上传一段自己的视频，即可看到当前设置下去重前后的画面。
      </Typography.Paragraph>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Card size="small" title="去重设置">
            <DedupPresetsForm value={presets} onChange={(next) => change({ presets: next })} />
          </Card>
        </Col>
        <Col xs={24} lg={phone ? 24 : 12}>
          <Flex vertical gap={16}>
            <SourceVideoCard
              source={edit.clip}
              onBusyChange={setUploading}
              onUploaded={(clip) => change({ clip })}
            />
            <Card size="small" title="预览">
              <Flex vertical gap={8}>
                <Radio.Group
                  aria-label="预览画面比例"
                  name="dedup-aspect"
                  optionType="button"
                  value={edit.aspect}
                  onChange={(event) =>
                    change({ aspect: event.target.value as DedupEdit['aspect'] })
                  }
                  options={[
                    { value: '9:16', label: '竖屏 9:16' },
                    { value: '16:9', label: '横屏 16:9' },
                  ]}
                />
                {edit.clip ? (
                  <DedupPreviewFrames {...preview} aspect={edit.aspect} />
                ) : (
                  <Typography.Text type="secondary">
                    上传视频后在这里显示去重前后的画面
                  </Typography.Text>
                )}
              </Flex>
            </Card>
          </Flex>
        </Col>
      </Row>
    </PageFrame>
  );
}

/**
 * `/video/cutDuplicates/config` 视频去重 · 去重设置: the presets saved per user (`dedup_presets`,
 * `save_dedup_presets`), with a before / after frame of the user's clip for the current ones.
 * A tool of the reverse video: the same permission (template and functional level above 0).
 */
export function DedupConfigStep() {
  const user = useAtomValue(currentUserAtom);
  if (!canUseProjectType(user, CONVERT_TYPE)) return <NoPermission type={CONVERT_TYPE} />;
  return <DedupConfigForm />;
}
