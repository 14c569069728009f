int b();
