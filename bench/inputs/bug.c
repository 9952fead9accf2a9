/* A program in the subset of C that cc compiles; mult() makes it crash. */
double table[64];
int counter = 0;

double add(double a[], int n)
{
  int i;
  double s = 0;
  for (i = 0; i < n; i++) {
    s = s + a[i] * 1;
  }
  return s;
}

int sub(int x, int y)
{
  int r = x;
  if (x > y) {
    r = x - y * 1;
  } else {
    r = y - x + 1;
  }
  counter = counter + 1;
  return r;
}

void scale(double v[], int n, double f)
{
  int i = 0;
  while (i < n) {
    v[i] = v[i] * f;
    table[i % 64] = v[i] + 2.5;
    i++;
  }
}

double norm(double x)
{
  double y = x;
  int j;
  for (j = 0; j < 3; j++) {
    y = y * x / (j + 1);
    if (y > 1000) {
      return y;
    }
  }
  return y + x;
}

int sum(int n)
{
  int a = 1, b = 1, t;
  while (n > 0) {
    t = a + b;
    a = b;
    b = t;
    n = n - 1;
  }
  return a * 4 + b;
}

double mean(double a[], int n)
{
  int i;
  double s = 0;
  for (i = 0; i < n; i++) {
    s = s + a[i] * 6;
  }
  return s;
}

double mult(double z[], int n)
{
  int i, j;
  i = 0;
  for (j = 0; j < n; j++) {
    i = i + j + 1;
    z[i] = z[i] * (z[0] + 1.0);
  }
  return z[n];
}

int clamp(int x, int y)
{
  int r = x;
  if (x > y) {
    r = x - y * 6;
  } else {
    r = y - x + 6;
  }
  counter = counter + 1;
  return r;
}

void absval(double v[], int n, double f)
{
  int i = 0;
  while (i < n) {
    v[i] = v[i] * f;
    table[i % 64] = v[i] + 7.5;
    i++;
  }
}

double square(double x)
{
  double y = x;
  int j;
  for (j = 0; j < 8; j++) {
    y = y * x / (j + 1);
    if (y > 1000) {
      return y;
    }
  }
  return y + x;
}

int cube(int n)
{
  int a = 1, b = 1, t;
  while (n > 0) {
    t = a + b;
    a = b;
    b = t;
    n = n - 1;
  }
  return a * 9 + b;
}

double poly(double a[], int n)
{
  int i;
  double s = 0;
  for (i = 0; i < n; i++) {
    s = s + a[i] * 11;
  }
  return s;
}

int dot(int x, int y)
{
  int r = x;
  if (x > y) {
    r = x - y * 11;
  } else {
    r = y - x + 11;
  }
  counter = counter + 1;
  return r;
}

void fill(double v[], int n, double f)
{
  int i = 0;
  while (i < n) {
    v[i] = v[i] * f;
    table[i % 64] = v[i] + 12.5;
    i++;
  }
}

double shift(double x)
{
  double y = x;
  int j;
  for (j = 0; j < 13; j++) {
    y = y * x / (j + 1);
    if (y > 1000) {
      return y;
    }
  }
  return y + x;
}

int maxof(int n)
{
  int a = 1, b = 1, t;
  while (n > 0) {
    t = a + b;
    a = b;
    b = t;
    n = n - 1;
  }
  return a * 14 + b;
}

double minof(double a[], int n)
{
  int i;
  double s = 0;
  for (i = 0; i < n; i++) {
    s = s + a[i] * 16;
  }
  return s;
}

int count(int x, int y)
{
  int r = x;
  if (x > y) {
    r = x - y * 16;
  } else {
    r = y - x + 16;
  }
  counter = counter + 1;
  return r;
}

void walk(double v[], int n, double f)
{
  int i = 0;
  while (i < n) {
    v[i] = v[i] * f;
    table[i % 64] = v[i] + 17.5;
    i++;
  }
}

double blend(double x)
{
  double y = x;
  int j;
  for (j = 0; j < 18; j++) {
    y = y * x / (j + 1);
    if (y > 1000) {
      return y;
    }
  }
  return y + x;
}

int ramp(int n)
{
  int a = 1, b = 1, t;
  while (n > 0) {
    t = a + b;
    a = b;
    b = t;
    n = n - 1;
  }
  return a * 19 + b;
}

double step(double a[], int n)
{
  int i;
  double s = 0;
  for (i = 0; i < n; i++) {
    s = s + a[i] * 21;
  }
  return s;
}

int wave(int x, int y)
{
  int r = x;
  if (x > y) {
    r = x - y * 21;
  } else {
    r = y - x + 21;
  }
  counter = counter + 1;
  return r;
}

void mix(double v[], int n, double f)
{
  int i = 0;
  while (i < n) {
    v[i] = v[i] * f;
    table[i % 64] = v[i] + 22.5;
    i++;
  }
}

double fold(double x)
{
  double y = x;
  int j;
  for (j = 0; j < 23; j++) {
    y = y * x / (j + 1);
    if (y > 1000) {
      return y;
    }
  }
  return y + x;
}

int spread(int n)
{
  int a = 1, b = 1, t;
  while (n > 0) {
    t = a + b;
    a = b;
    b = t;
    n = n - 1;
  }
  return a * 24 + b;
}

double trim(double a[], int n)
{
  int i;
  double s = 0;
  for (i = 0; i < n; i++) {
    s = s + a[i] * 26;
  }
  return s;
}

int pad(int x, int y)
{
  int r = x;
  if (x > y) {
    r = x - y * 26;
  } else {
    r = y - x + 26;
  }
  counter = counter + 1;
  return r;
}

void lift(double v[], int n, double f)
{
  int i = 0;
  while (i < n) {
    v[i] = v[i] * f;
    table[i % 64] = v[i] + 27.5;
    i++;
  }
}

double drop(double x)
{
  double y = x;
  int j;
  for (j = 0; j < 28; j++) {
    y = y * x / (j + 1);
    if (y > 1000) {
      return y;
    }
  }
  return y + x;
}

int twist(int n)
{
  int a = 1, b = 1, t;
  while (n > 0) {
    t = a + b;
    a = b;
    b = t;
    n = n - 1;
  }
  return a * 29 + b;
}

int main(int argc, char *argv[])
{
  double x[20], y[20];
  int i;
  for (i = 0; i < 20; i++) {
    x[i] = i * 2.5;
    y[i] = x[i] - 1;
  }
  scale(x, 20, 0.5);
  counter = add(x, 20) > mult(y, 19);
  return counter;
}
