-- A user's profile banner (an image hash served at the CDN's banners path; null: none).
ALTER TABLE users ADD COLUMN banner TEXT;
