import { Card, Col, Flex, Row, Spin, Typography } from 'antd';
import { useAtomValue } from 'jotai';
import { currentUserAtom } from '@kol/shared-sdk/state';
import { DraftFolderForm } from '../features/draft-folder/components/draft-folder-form';
import { PostingAccountForm } from '../features/posting-account/components/posting-account-form';
import { ProfileForm } from '../features/profile/components/profile-form';
import { QuotaTable } from '../features/quotas/components/quota-table';
import { SignOutButton } from '../features/sign-out/components/sign-out-button';

/** `/user` (个人中心): one column on a phone, two beside each other from `lg` up. */
export function UserCentrePage() {
  const user = useAtomValue(currentUserAtom);

  return (
    <Flex vertical gap={16} style={{ maxWidth: 1200, width: '100%' }}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>
          个人中心
        </Typography.Title>
        <SignOutButton />
      </Flex>
      {user ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={12}>
            <Card title="个人资料">
              <ProfileForm key={user.userId} user={user} />
            </Card>
          </Col>
          <Col xs={24} lg={12}>
            <Card title="发布账号">
              <PostingAccountForm key={user.userId} user={user} />
            </Card>
          </Col>
          <Col xs={24}>
            <Card title="剪映草稿文件夹">
              <DraftFolderForm key={user.userId} user={user} />
            </Card>
          </Col>
          <Col xs={24}>
            <Card title="剩余次数">
              <QuotaTable />
            </Card>
          </Col>
        </Row>
      ) : (
        // The host fills the user before it renders a remote; this covers the instant between.
        <Spin description="加载中" />
      )}
    </Flex>
  );
}
