import { isOfficeKey, useInstance } from '../../store/instance';
import { usePageTitle } from '../../components/usePageTitle';
import { PairPhone } from '../PairPhone';
import { ApiKeysCard } from './ApiKeysCard';
import { BackupsCard } from './BackupsCard';
import { CompanyCard } from './CompanyCard';
import { DeviceCard } from './DeviceCard';
import { InstanceAndSyncCard } from './InstanceAndSyncCard';

/** /settings: the company, keys, this instance and its peers, backups, and this device's look. */
export function Settings() {
  const instance = useInstance((s) => s.instance);
  const supplier = instance !== null && isOfficeKey(instance.key.role);
  usePageTitle('Settings');
  return (
    <>
      <h1 className="page-title">Settings</h1>
      <DeviceCard />
      {instance && !supplier && <p className="note">This device is signed in with a {instance.key.role} key: company, keys and backups need an office (supplier) key.</p>}
      {supplier && <CompanyCard />}
      {supplier && <ApiKeysCard ownKeyId={instance.key.id} />}
      {supplier && !window.tourdesk && <PairPhone embedded />}
      <InstanceAndSyncCard />
      {supplier && <BackupsCard dataFolder={instance.dataFolder} />}
    </>
  );
}
