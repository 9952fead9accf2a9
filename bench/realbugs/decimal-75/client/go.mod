module example.com/realbugs/decimal-75

go 1.22

require github.com/shopspring/decimal v1.0.0
