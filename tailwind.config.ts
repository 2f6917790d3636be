import type { Config } from 'tailwindcss';

// Tailwind 4 reads this through `@config` in app/globals.css.
const config: Config = {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  theme: {
    extend: {
      colors: {
        brand: {
          50: '#eef6ff',
          100: '#d9eaff',
          200: '#bcd9ff',
          300: '#8ec0ff',
          400: '#5a9bf8',
          500: '#2f6fed',
          600: '#1f58d6',
          700: '#1a47ad',
          800: '#183c8a',
          900: '#142d63',
        },
      },
    },
  },
};

export default config;
