import { create } from 'zustand';
import { api, ApiError, type ApiConfig } from './api';

interface ProductSummary {
  productCode: string;
  name: string;
  productType: string;
  bookingMode: string;
}

interface DeskState {
  config: ApiConfig | null;
  products: ProductSummary[];
  loading: boolean;
  error: string | null;
  connect(config: ApiConfig): Promise<void>;
}

const KEY_STORAGE = 'tourdesk.apiKey';

export const useDesk = create<DeskState>((set) => ({
  config: null,
  products: [],
  loading: false,
  error: null,
  async connect(config) {
    set({ loading: true, error: null });
    try {
      const result = await api<{ products: ProductSummary[] }>(config, 'GET', '/v1/products?limit=100');
      sessionStorage.setItem(KEY_STORAGE, config.apiKey);
      set({ config, products: result.products, loading: false });
    } catch (error) {
      set({ loading: false, error: error instanceof ApiError ? error.message : 'Could not reach the TourDesk engine' });
    }
  },
}));

export const savedKey = () => sessionStorage.getItem(KEY_STORAGE);
