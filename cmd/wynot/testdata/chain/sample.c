/* sample sorts its arguments: Zeller's example program of "Why
 * Programs Fail" (ch. 1, Fig. 1.1), with its defect: shell_sort is
 * called with argc, the number of arguments plus one, so it sorts one
 * element past the end of the array. To make the failure reproducible,
 * the array has that slot, and it holds a value chosen by the number
 * of arguments (where the original read whatever was there): 1000
 * after an odd number of arguments, which sorts to the end and hides
 * the defect, 0 after an even number, which sorts into the output. */
#include <stdio.h>
#include <stdlib.h>

static void shell_sort(int a[], int size)
{
	int i, j;
	int h = 1;
	do {
		h = h * 3 + 1;
	} while (h <= size);
	do {
		h /= 3;
		for (i = h; i < size; i++) {
			int v = a[i];
			for (j = i; j >= h && a[j - h] > v; j -= h)
				a[j] = a[j - h];
			if (i != j)
				a[j] = v;
		}
	} while (h != 1);
}

int main(int argc, char *argv[])
{
	int i;
	int *a = malloc(argc * sizeof(int));
	for (i = 0; i < argc - 1; i++)
		a[i] = atoi(argv[i + 1]);
	a[argc - 1] = (argc - 1) % 2 ? 1000 : 0;
	shell_sort(a, argc);
	printf("Output: ");
	for (i = 0; i < argc - 1; i++)
		printf("%d ", a[i]);
	printf("\n");
	free(a);
	return 0;
}
