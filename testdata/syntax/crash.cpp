// A C++ file on which cppcheck (cppcheck.cc beside it) crashes: a class
// template with a virtual member, used in a range-for loop.
namespace geo {
template <typename T> struct Point {
  T x, y;
  Point() : x(0), y(0) {}
  Point(T a, T b) : x(a), y(b) {}
};

class Shape {
public:
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual const char *name() const { return "shape"; }
};

template <typename T> class Poly : public Shape {
  Point<T> pts[8];
  int n;

public:
  Poly() : n(0) {}
  void add(T x, T y) {
    if (n < 8) {
      pts[n] = Point<T>(x, y);
      n++;
    }
  }
  virtual double area() const {
    double a = 0;
    for (int i = 0; i < n; i++) {
      const Point<T> &p = pts[i], &q = pts[(i + 1) % n];
      a += p.x * q.y - q.x * p.y;
    }
    return a < 0 ? -a / 2 : a / 2;
  }
};
} // namespace geo

static int count(const int *xs, int n) {
  int c = 0;
  for (int i = 0; i < n; i++)
    if (xs[i] % 2 == 0)
      c++;
  return c;
}

int main() {
  int xs[] = {1, 2, 3, 4};
  int total = 0;
  for (int x : xs)
    total += x;
  geo::Poly<int> sq;
  sq.add(0, 0);
  sq.add(2, 0);
  sq.add(2, 2);
  sq.add(0, 2);
  return (int)sq.area() + count(xs, 4) + total;
}
