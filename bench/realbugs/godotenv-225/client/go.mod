module example.com/realbugs/godotenv-225

go 1.22

require github.com/joho/godotenv v1.5.1
