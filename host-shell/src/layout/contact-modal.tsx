import { MODAL_DEFAULT_WIDTH } from '@kol/shared-sdk';
import { Descriptions, Empty, Modal } from 'antd';
import { useAtomValue } from 'jotai';
import { platformConfigAtom } from '../lib/platform-config';

/** Contact details come from the server's configuration. */
export function ContactModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { contact } = useAtomValue(platformConfigAtom);
  return (
    <Modal
      open={open}
      title={contact.title || '联系我们'}
      width={MODAL_DEFAULT_WIDTH}
      onCancel={onClose}
      footer={null}
    >
      {contact.lines.length ? (
        <Descriptions
          column={1}
          items={contact.lines.map((line) => ({
            key: line.label,
            label: line.label,
            children: line.value,
          }))}
        />
      ) : (
        <Empty description="暂无联系方式" />
      )}
    </Modal>
  );
}
