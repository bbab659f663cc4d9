import { useState } from 'react';
import { Alert, App, Button, Col, Flex, Pagination, Row, Spin } from 'antd';
import { ProjectType, type Role } from '@kol/shared-sdk';
import { ROLES_PAGE_SIZE, useLibraryRoles } from '../features/roles/api/use-library-roles';
import { useRoleActions, type RoleFields } from '../features/roles/api/use-role-actions';
import { useRoleRedraw } from '../features/roles/api/use-role-redraw';
import { useRolesQuery } from '../features/roles/api/use-roles-query';
import { RoleCard } from '../features/roles/components/role-card';
import { RoleFormModal } from '../features/roles/components/role-form-modal';
import { RolesEmpty } from '../features/roles/components/roles-empty';
import { RolesToolbar } from '../features/roles/components/roles-toolbar';
import { UseInVideoModal } from '../features/roles/components/use-in-video-modal';

/** The form is closed, creating, or editing a role. */
type Editing = { role: Role | null } | null;

/**
 * `/work/character` 我的角色: the user's role library (roles of no task) to make, edit, draw,
 * delete, and copy into a video's roles.
 */
export function RolesPage() {
  const { modal } = App.useApp();
  const { query, setQuery } = useRolesQuery();
  const roles = useLibraryRoles(query);
  const actions = useRoleActions(roles.reload);
  const redraw = useRoleRedraw(roles.reload);
  const [editing, setEditing] = useState<Editing>(null);
  const [usingRole, setUsingRole] = useState<Role | null>(null);

  const save = async (role: Role | null, fields: RoleFields) => {
    await actions.save(role, fields);
    // A new role is the newest: show the first page, and drop a filter that would hide it.
    if (!role) {
      const keyword = query.keyword.toLowerCase();
      setQuery({
        pageIndex: 1,
        ...(query.type !== null && query.type !== fields.type ? { type: null } : {}),
        ...(keyword && !fields.name.toLowerCase().includes(keyword) ? { keyword: '' } : {}),
      });
    }
  };

  const confirmDelete = async (role: Role) => {
    // Awaited: a refused delete (onOk rejects) keeps the dialog open, quietly.
    const deleted = await modal.confirm({
      title: `删除角色「${role.name}」？`,
      content: '删除后无法恢复；已经加入视频的角色副本不受影响。',
      okText: '删除',
      okButtonProps: { danger: true },
      cancelText: '取消',
      onOk: () => actions.remove(role),
    });
    if (!deleted) return;
    // The last card of a later page: show the page before it.
    if (roles.items.length === 1 && query.pageIndex > 1)
      setQuery({ pageIndex: query.pageIndex - 1 });
    else roles.reload();
  };

  const filtered = query.type !== null || query.keyword !== '';
  const empty = !roles.loading && !roles.error && roles.items.length === 0;

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200, width: '100%' }}>
      <RolesToolbar
        key={query.keyword}
        query={query}
        onChange={setQuery}
        onCreate={() => setEditing({ role: null })}
      />
      {roles.error && (
        <Alert
          type="error"
          showIcon
          title={`角色加载失败：${roles.error}`}
          action={
            <Button size="small" onClick={roles.reload}>
              重试
            </Button>
          }
        />
      )}
      {roles.loading && roles.items.length === 0 ? (
        <Spin description="加载中" />
      ) : empty ? (
        <RolesEmpty
          filtered={filtered}
          onCreate={() => setEditing({ role: null })}
          onClearFilters={() => setQuery({ type: null, keyword: '' })}
        />
      ) : (
        <Spin spinning={roles.loading}>
          <Row gutter={[16, 16]} data-testid="role-list">
            {roles.items.map((role) => (
              <Col key={role.roleId} xs={24} sm={12} md={8} lg={6}>
                <RoleCard
                  role={role}
                  redraw={redraw.states[role.roleId]}
                  uploading={actions.uploadingId === role.roleId}
                  onEdit={() => setEditing({ role })}
                  onDelete={() => void confirmDelete(role)}
                  onRedraw={() => void redraw.redraw(role.roleId)}
                  onUpload={(file) => void actions.uploadReference(role, file)}
                  onUseInVideo={() => setUsingRole(role)}
                  onGenderChange={(gender) => void actions.setGender(role, gender)}
                  savingGender={actions.genderId === role.roleId}
                />
              </Col>
            ))}
          </Row>
        </Spin>
      )}
      {roles.total > ROLES_PAGE_SIZE && (
        <Pagination
          data-testid="roles-pagination"
          current={query.pageIndex}
          pageSize={ROLES_PAGE_SIZE}
          total={roles.total}
          showSizeChanger={false}
          onChange={(pageIndex) => setQuery({ pageIndex })}
          style={{ alignSelf: 'center' }}
        />
      )}
      {editing && (
        <RoleFormModal
          role={editing.role}
          defaultType={query.type ?? ProjectType.comics}
          onSave={(fields) => save(editing.role, fields)}
          onClose={() => setEditing(null)}
        />
      )}
      {usingRole && <UseInVideoModal role={usingRole} onClose={() => setUsingRole(null)} />}
    </Flex>
  );
}
