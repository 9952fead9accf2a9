CREATE TABLE Customer(CustomerId, FirstName, LastName, NVARCHAR0, Address, City,
                      State, Country, PostalCode, Phone, Fax, Email, Employee);
CREATE TABLE Invoice(InvoiceId, CustomerId, DATETIME, NVARCHAR0, BillingCity,
                     BillingState, BillingCountry, BillingPostalCode, Customer);
INSERT INTO Customer VALUES(14, 'Mark', 'Philips', 'Telus', '8210 1 ST NW',
                            'Edmonton', 'AB', 'Canada', 'T6G 2C7',
                            '+1 0 434-4554', '+1 0 434-5565',
                            'mphilips12@shaw.ca', 5);
INSERT INTO Invoice VALUES(3, 8, '2021-01-03 0:0:00', 'Grétrystraat 63',
                           'Brussels', NULL, 'Belgium', '1000', 5.94);
INSERT INTO Invoice VALUES(4, 14, '2021-01-06 0:0:00', '8210 1 ST NW',
                           'Edmonton', 'AB', 'Canada', 'T6G 2C7', 8.911);
SELECT
    Country FROM Customer WHERE CustomerId IN((SELECT CustomerId FROM Invoice))