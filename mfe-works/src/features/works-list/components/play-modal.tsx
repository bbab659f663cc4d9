import { Modal } from 'antd';
import { mediaUrl, type WorkSummary } from '@kol/shared-sdk';

/** Plays a work's finished video in place; closing it unmounts the player, which stops it. */
export function PlayModal({ work, onClose }: { work: WorkSummary | null; onClose: () => void }) {
  return (
    <Modal
      title={work?.title}
      open={work !== null}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={720}
    >
      {work?.videoUrl && (
        <video
          controls
          autoPlay
          src={mediaUrl(work.videoUrl)}
          aria-label="视频播放器"
          style={{ width: '100%', maxHeight: '70vh', background: '#000' }}
        />
      )}
    </Modal>
  );
}
