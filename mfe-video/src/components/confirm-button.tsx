import { useState, type ReactNode } from 'react';
import { Button, Modal, type ButtonProps } from 'antd';
import { useSingleFlight } from '@kol/shared-sdk/ui';

interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick'> {
  /** The dialog's title and what it says the action costs or removes. */
  confirmTitle: string;
  confirmContent: ReactNode;
  okText: string;
  okDanger?: boolean;
  /**
   * Runs first; false leaves the dialog closed (e.g. input that is not valid). It must make
   * nothing: the creator has not committed yet, and 取消 must leave nothing behind.
   */
  prepare?: () => Promise<boolean>;
  /**
   * The action, on 确认: whatever it creates (the work, the task, the count spent) is made
   * here. A rejection keeps the dialog open (the caller has said why).
   */
  onConfirm: () => Promise<void>;
}

/**
 * A button whose action spends a count or removes something: it asks first. From the first
 * click on, a second one does nothing: the button spins while `prepare` runs and the dialog's
 * button while the action runs (useSingleFlight: a double click runs each once). On success the
 * dialog closes, on failure it stays as it was (spec section 4).
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

  const ask = useSingleFlight(async () => {
    if (prepare && !(await prepare())) return;
    setOpen(true);
  });

  const confirm = useSingleFlight(async () => {
    try {
      await onConfirm();
      setOpen(false);
    } catch {
      // The caller told the user; the dialog stays for another try or a cancel.
    }
  });

  return (
    <>
      <Button
        {...button}
        loading={button.loading || ask.busy || confirm.busy}
        onClick={() => {
          // Open already: the dialog has the next step.
          if (!open) void ask.run();
        }}
      >
        {children}
      </Button>
      <Modal
        title={confirmTitle}
        open={open}
        okText={okText}
        cancelText="取消"
        okButtonProps={{ danger: okDanger }}
        confirmLoading={confirm.busy}
        onOk={() => void confirm.run()}
        onCancel={() => setOpen(false)}
        // Closed by 取消 only: the second click of a double click on the button lands on the
        // mask of the dialog the first one opened, and must not close it.
        mask={{ closable: false }}
        destroyOnHidden
      >
        {confirmContent}
      </Modal>
    </>
  );
}
