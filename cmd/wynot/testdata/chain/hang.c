/* hang loops forever when n and k are both 4: a state neither run has
 * (the passing one has n = 2, k = 4, the failing one n = 4, k = 8), which
 * a transplant of n alone makes. */
#include <stdio.h>
int main(int argc, char **argv) {
	int n = argc;
	int k = n * 2;
	if (k == 4 && n == 4)
		for (;;)
			n++;
	printf("ok %d %d\n", n, k);
	return 0;
}
