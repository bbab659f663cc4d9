import { useMutation } from '@tanstack/react-query';
import { App } from 'antd';
import { deleteEditAsset, errorMessage, type Material } from '@kol/shared-sdk';
import { useReloadBackgrounds } from '../../../hooks/use-backgrounds';

/**
 * Deleting one of the creator's uploads from 我的上传 (`/api/edit/delete`), asked first by the
 * caller. On success every list of backgrounds is read again, so the clip leaves each picker;
 * a refusal says why (the caller's dialog stays open for another try).
 */
export function useDeleteUpload(onDeleted: (material: Material) => void) {
  const { message } = App.useApp();
  const reload = useReloadBackgrounds();
  const { mutateAsync, isPending } = useMutation({
    mutationFn: (material: Material) => deleteEditAsset({ assetId: material.materialId }),
    onSuccess: async (_answer, material) => {
      onDeleted(material);
      void message.success(`已删除「${material.name}」`);
      await reload();
    },
    onError: (reason, material) => {
      void message.error(`「${material.name}」删除失败：${errorMessage(reason)}`);
    },
  });
  return { remove: mutateAsync, removing: isPending };
}
