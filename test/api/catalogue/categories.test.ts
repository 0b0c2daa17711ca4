import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefusedUnchanged } from '../../fixtures/refusals';
import { startTestApp, type TestApp } from '../../fixtures/app';
import { aCategory, aProduct } from '../../fixtures/builders';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['categories', 'category_products', 'op_log'];
const createCategory = async (overrides = {}) => {
  const res = await t.call('POST', '/v1/categories', { body: aCategory(overrides) });
  expect(res.status).toBe(200);
  return res.body.category;
};
const createProduct = async (overrides = {}) => (await t.call('POST', '/v1/products', { body: aProduct(overrides) })).body.product;

describe('categories', () => {
  it('creates a category and answers it with both visible and isVisible', async () => {
    const category = await createCategory({ name: 'Reef Trips', image: { itemUrl: 'https://img.example/reef.jpg' } });
    expect(category).toMatchObject({ name: 'Reef Trips', description: 'Everything on the water', visible: true, isVisible: true, image: { itemUrl: 'https://img.example/reef.jpg' } });
    expect(category.id).toBeGreaterThan(0);
    const fetched = await t.call('GET', `/v1/categories/${category.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body.category).toEqual(category);
  });

  it('accepts isVisible (also as a string) in place of visible', async () => {
    const hidden = await createCategory({ visible: undefined, isVisible: 'false' });
    expect(hidden).toMatchObject({ visible: false, isVisible: false });
    const updated = await t.call('PUT', `/v1/categories/${hidden.id}`, { body: { isVisible: true } });
    expect(updated.body.category).toMatchObject({ visible: true, isVisible: true, name: 'Harbour Cruises' });
  });

  it('updates only the fields sent', async () => {
    const category = await createCategory({ name: 'Night Tours' });
    const res = await t.call('PUT', `/v1/categories/${category.id}`, { body: { description: 'After dark', visible: false } });
    expect(res.status).toBe(200);
    expect(res.body.category).toMatchObject({ id: category.id, name: 'Night Tours', description: 'After dark', visible: false, isVisible: false });
  });

  const invalid: [string, Record<string, unknown>][] = [
    ['a missing name', { name: undefined }],
    ['an empty name', { name: '  ' }],
    ['a name over 200 characters', { name: 'x'.repeat(201) }],
    ['a visible flag that is not a boolean', { visible: 'sometimes' }],
    ['visible and isVisible that disagree', { visible: true, isVisible: false }],
    ['an image that is not an object', { image: 'pic.jpg' }],
  ];
  it.each(invalid)('refuses a create with %s with 400 and changes nothing', async (_name, overrides) => {
    await expectRefusedUnchanged(t, TABLES, 400, () => t.call('POST', '/v1/categories', { body: aCategory(overrides) }), 'VALIDATION_ERROR');
  });

  it('refuses an invalid update with 400 and changes nothing', async () => {
    const category = await createCategory();
    const before = t.snapshot(...TABLES);
    for (const body of [{ name: '' }, { visible: 'perhaps' }, { visible: false, isVisible: true }]) {
      const res = await t.call('PUT', `/v1/categories/${category.id}`, { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.requestStatus.error.errorMessage).toBeTruthy();
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('answers 404 for an unknown category and 400 for a non-numeric id, on every operation', async () => {
    const product = await createProduct();
    const calls: [string, string, object?][] = [
      ['GET', '/v1/categories/424242'],
      ['PUT', '/v1/categories/424242', { name: 'x' }],
      ['DELETE', '/v1/categories/424242'],
      ['GET', '/v1/categories/424242/products'],
      ['PUT', `/v1/categories/424242/products/${product.productCode}`],
      ['DELETE', `/v1/categories/424242/products/${product.productCode}`],
    ];
    const before = t.snapshot(...TABLES);
    for (const [method, url, body] of calls) {
      const res = await t.call(method, url, body ? { body } : {});
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
      const bad = await t.call(method, url.replace('424242', 'abc'), body ? { body } : {});
      expect(bad.status, `${method} ${url} (abc)`).toBe(400);
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('searches by name and by visibility, pages, clamps the limit and accepts a trailing slash', async () => {
    await createCategory({ name: 'Zeta Search One' });
    await createCategory({ name: 'Zeta Search Two', visible: false });
    await createCategory({ name: 'Zeta Search Three' });
    const all = (await t.call('GET', '/v1/categories/?search=zeta%20search')).body.categories;
    expect(all.map((c: any) => c.name)).toEqual(['Zeta Search One', 'Zeta Search Three', 'Zeta Search Two']);
    const shown = (await t.call('GET', '/v1/categories?search=Zeta&visible=true')).body.categories;
    expect(shown.map((c: any) => c.name)).toEqual(['Zeta Search One', 'Zeta Search Three']);
    const hidden = (await t.call('GET', '/v1/categories?search=Zeta&visible=false')).body.categories;
    expect(hidden.map((c: any) => c.isVisible)).toEqual([false]);
    const page = (await t.call('GET', '/v1/categories?search=Zeta&limit=1&offset=1')).body.categories;
    expect(page.map((c: any) => c.name)).toEqual(['Zeta Search Three']);
    expect((await t.call('GET', '/v1/categories?limit=100000')).status).toBe(200);
    expect((await t.call('GET', '/v1/categories?search=%25')).body.categories).toEqual([]);
    const none = await t.call('GET', '/v1/categories?search=nothing-like-this');
    expect(none.status).toBe(200);
    expect(none.body.categories).toEqual([]);
  });

  it('clamps a limit above 100 to 100 and refuses a negative or non-numeric one', async () => {
    for (let i = 0; i < 101; i++) t.sql.prepare('INSERT INTO categories (id, name, created_at, updated_at) VALUES (?, ?, 0, 0)').run(900_000 + i, `Bulk ${String(i).padStart(3, '0')}`);
    const res = await t.call('GET', '/v1/categories?search=Bulk&limit=1000');
    expect(res.status).toBe(200);
    expect(res.body.categories).toHaveLength(100);
    for (const bad of ['limit=-1', 'limit=ten', 'offset=-5', 'visible=maybe']) {
      const r = await t.call('GET', `/v1/categories?${bad}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.requestStatus.error.errorMessage).toBeTruthy();
    }
  });

  it('adds products in order, lists them as full product objects, and adding twice changes nothing', async () => {
    const category = await createCategory({ name: 'Walks' });
    const first = await createProduct({ name: 'First Walk' });
    const second = await createProduct({ name: 'Second Walk' });
    const added = await t.call('PUT', `/v1/categories/${category.id}/products/${second.productCode}/`);
    expect(added.status).toBe(200);
    expect(added.body.category.id).toBe(category.id);
    expect(added.body.product.productCode).toBe(second.productCode);
    await t.call('PUT', `/v1/categories/${category.id}/products/${first.productCode}`);
    const before = t.snapshot(...TABLES);
    expect((await t.call('PUT', `/v1/categories/${category.id}/products/${second.productCode}`)).status).toBe(200);
    expect(t.snapshot(...TABLES)).toEqual(before);
    const listed = await t.call('GET', `/v1/categories/${category.id}/products`);
    expect(listed.body.products.map((p: any) => p.name)).toEqual(['Second Walk', 'First Walk']);
    expect(listed.body.products[0].priceOptions.map((o: any) => o.label)).toEqual(['Adult', 'Child']);
    expect((await t.call('GET', `/v1/categories/${category.id}/products?limit=1&offset=1`)).body.products.map((p: any) => p.name)).toEqual(['First Walk']);
    const clamped = await t.call('GET', `/v1/categories/${category.id}/products/?limit=100000`);
    expect(clamped.status).toBe(200);
    expect(clamped.body.products).toHaveLength(2);
    expect((await t.call('GET', `/v1/categories/${category.id}/products?limit=-2`)).status).toBe(400);
  });

  it('removes a product from a category; removing one that is not in it is a 404 that changes nothing', async () => {
    const category = await createCategory({ name: 'Short Walks' });
    const product = await createProduct();
    await t.call('PUT', `/v1/categories/${category.id}/products/${product.productCode}`);
    const removed = await t.call('DELETE', `/v1/categories/${category.id}/products/${product.productCode}`);
    expect(removed.status).toBe(200);
    expect((await t.call('GET', `/v1/categories/${category.id}/products`)).body.products).toEqual([]);
    const before = t.snapshot(...TABLES);
    const again = await t.call('DELETE', `/v1/categories/${category.id}/products/${product.productCode}`);
    expect(again.status).toBe(404);
    expect(again.body.requestStatus.error.errorMessage).toContain(product.productCode);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('refuses to add an unknown or archived product with 404 and changes nothing', async () => {
    const category = await createCategory();
    const archived = await createProduct();
    await t.call('DELETE', `/v1/products/${archived.productCode}`);
    const before = t.snapshot(...TABLES);
    for (const code of ['PNOPE00', archived.productCode]) {
      const res = await t.call('PUT', `/v1/categories/${category.id}/products/${code}`);
      expect(res.status).toBe(404);
      expect(res.body.requestStatus.error.errorCode).toBe('NOT_FOUND');
    }
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('leaves archived products out of the category listing', async () => {
    const category = await createCategory();
    const product = await createProduct();
    await t.call('PUT', `/v1/categories/${category.id}/products/${product.productCode}`);
    await t.call('DELETE', `/v1/products/${product.productCode}`);
    expect((await t.call('GET', `/v1/categories/${category.id}/products`)).body.products).toEqual([]);
  });

  it('deletes a category with its product links; the products stay', async () => {
    const category = await createCategory();
    const product = await createProduct();
    await t.call('PUT', `/v1/categories/${category.id}/products/${product.productCode}`);
    expect((await t.call('DELETE', `/v1/categories/${category.id}`)).status).toBe(200);
    expect((await t.call('GET', `/v1/categories/${category.id}`)).status).toBe(404);
    expect(t.sql.prepare('SELECT COUNT(*) AS n FROM category_products WHERE category_id = ?').get(category.id)).toEqual({ n: 0 });
    expect((await t.call('GET', `/v1/products/${product.productCode}`)).status).toBe(200);
  });

  it('refuses to delete a category a voucher is limited to, with 409 IN_USE, and changes nothing', async () => {
    const category = await createCategory();
    t.sql.prepare("INSERT INTO vouchers (code, value_type, value_percent, category_id, issue_at, created_at, updated_at) VALUES ('CATV1', 'PERCENT_LIMITCATALOG', 10, ?, 0, 0, 0)").run(category.id);
    const before = t.snapshot(...TABLES);
    const res = await t.call('DELETE', `/v1/categories/${category.id}`);
    expect(res.status).toBe(409);
    expect(res.body.requestStatus.error.errorCode).toBe('IN_USE');
    expect(res.body.requestStatus.error.errorMessage).toContain('CATV1');
    expect(t.snapshot(...TABLES)).toEqual(before);
  });

  it('lets agents read categories but not change them, and checkin keys neither', async () => {
    const category = await createCategory();
    const product = await createProduct();
    expect((await t.call('GET', '/v1/categories', { role: 'agent' })).status).toBe(200);
    expect((await t.call('GET', `/v1/categories/${category.id}`, { role: 'agent' })).status).toBe(200);
    expect((await t.call('GET', `/v1/categories/${category.id}/products`, { role: 'agent' })).status).toBe(200);
    const before = t.snapshot(...TABLES);
    const writes: [string, string, object?][] = [
      ['POST', '/v1/categories', aCategory()],
      ['PUT', `/v1/categories/${category.id}`, { name: 'Hijacked' }],
      ['DELETE', `/v1/categories/${category.id}`],
      ['PUT', `/v1/categories/${category.id}/products/${product.productCode}`],
      ['DELETE', `/v1/categories/${category.id}/products/${product.productCode}`],
    ];
    for (const role of ['agent', 'checkin'] as const) {
      for (const [method, url, body] of writes) {
        const res = await t.call(method, url, { role, ...(body ? { body } : {}) });
        expect(res.status, `${role} ${method} ${url}`).toBe(403);
        expect(res.body.requestStatus.error.errorCode).toBe('FORBIDDEN');
      }
    }
    expect((await t.call('GET', '/v1/categories', { role: 'checkin' })).status).toBe(403);
    expect((await t.call('GET', '/v1/categories', { role: null })).status).toBe(401);
    expect(t.snapshot(...TABLES)).toEqual(before);
  });
});
