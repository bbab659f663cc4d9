import { useEffect, useState } from 'react';
import { getSystemMaterialList, type Material, errorMessage } from '@kol/shared-sdk';

/**
 * The background loops the server renders over (`get_system_material_list`): its built-in loops
 * and the user's own uploaded clips, each with the id `backgroundMaterialId` takes.
 */
export function useBackgrounds() {
  const [materials, setMaterials] = useState<Material[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    getSystemMaterialList({ pageIndex: 1, pageSize: 100 }).then(
      (page) => {
        if (!live) return;
        setMaterials(page.items);
        setError(null);
        setLoading(false);
      },
      (reason: unknown) => {
        if (!live) return;
        setError(errorMessage(reason));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  return {
    materials,
    loading,
    error,
    reload: () => {
      setLoading(true);
      setAttempt((n) => n + 1);
    },
  };
}
