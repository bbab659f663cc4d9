import { MODAL_DEFAULT_WIDTH } from '@kol/shared-sdk';
import { Modal, Typography } from 'antd';

/** The community convention's four rules (spec section 1). */
export const CONVENTION_RULES = [
  '遵守国家法律法规，不制作、传播任何违法违规内容。',
  '尊重知识产权和他人的合法权益，不侵犯他人的著作权、肖像权、隐私权等权利。',
  '仅上传原创或已获得授权的素材，对上传内容的合法性负责。',
  '平台可能对内容进行审核，违法违规内容将依法向有关部门报告。',
];

export function ConventionModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      title="社区公约"
      width={MODAL_DEFAULT_WIDTH}
      onCancel={onClose}
      onOk={onClose}
      okText="我知道了"
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <Typography>
        <ol>
          {CONVENTION_RULES.map((rule) => (
            <li key={rule}>
              <Typography.Paragraph>{rule}</Typography.Paragraph>
            </li>
          ))}
        </ol>
      </Typography>
    </Modal>
  );
}
