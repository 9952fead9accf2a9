/* sample computes the sum and the product of the numbers from a to b. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char *argv[]) {
	int sum, mul, a, b;
	sum = 0;
	mul = 1;
	a = atoi(argv[1]);
	b = atoi(argv[2]);
	while (a <= b) {
		sum = sum + a;
		mul = mul * a;
		a = a + 1;
	}
	printf("sum = %d\n", sum);
	printf("mul = %d\n", mul);
	return 0;
}
