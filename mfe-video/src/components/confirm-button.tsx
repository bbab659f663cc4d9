import { useState, type ReactNode } from 'react';
import { Button, Modal, type ButtonProps } from 'antd';

interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** The dialog's title and what it says the action costs or removes. */
  confirmTitle: string;
  confirmContent: ReactNode;
  okText: string;
  okDanger?: boolean;
  /** Runs first; false leaves the dialog closed (e.g. unsaved input that failed to save). */
  prepare?: () => Promise<boolean>;
  /** The action. A rejection keeps the dialog open (the caller has said why). */
  onConfirm: () => Promise<void>;
}

/**
 * A button whose action spends a count or removes something: it asks first. While the action
 * runs the dialog's button spins; on success the dialog closes, on failure it stays as it was
 * (spec section 4).
 */
export function ConfirmButton({
  confirmTitle,
  confirmContent,
  okText,
  okDanger,
  prepare,
  onConfirm,
  children,
  ...button
}: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);

  const ask = async () => {
    if (prepare && !(await prepare())) return;
    setOpen(true);
  };

  const confirm = async () => {
    setRunning(true);
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The caller told the user; the dialog stays for another try or a cancel.
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <Button {...button} loading={button.loading || running} onClick={() => void ask()}>
        {children}
      </Button>
      <Modal
        title={confirmTitle}
        open={open}
        okText={okText}
        cancelText="取消"
        okButtonProps={{ danger: okDanger }}
        confirmLoading={running}
        onOk={() => void confirm()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        {confirmContent}
      </Modal>
    </>
  );
}
