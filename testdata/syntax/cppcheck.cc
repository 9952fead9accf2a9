// cppcheck reads a C++ file and crashes (a null pointer dereference) when
// it declares a class template with a virtual member function and has a
// range-for loop: a stand-in for a compiler bug, built by the tests.
#include <cstdio>
#include <cstring>
#include <string>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  FILE *f = std::fopen(argv[1], "r");
  if (!f)
    return 2;
  std::string s;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
    s.append(buf, n);
  std::fclose(f);
  size_t t = s.find("template");
  bool cls = t != std::string::npos && s.find("class", t) != std::string::npos;
  bool virt = s.find("virtual") != std::string::npos;
  size_t r = s.find("for (");
  bool rangeFor = false;
  while (r != std::string::npos) {
    size_t close = s.find(')', r);
    size_t colon = s.find(" : ", r);
    if (colon != std::string::npos && close != std::string::npos && colon < close)
      rangeFor = true;
    r = s.find("for (", r + 1);
  }
  if (cls && virt && rangeFor) {
    volatile int *p = nullptr;
    return *p;
  }
  return 0;
}
