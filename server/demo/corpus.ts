// Words the demo seed builds a believable support account from. Deliberately includes markdown and a
// few hostile strings (script tags, javascript: links) because real contacts send them.
export const firstNames = ['Ava', 'Noah', 'Mia', 'Liam', 'Zoe', 'Ethan', 'Aisha', 'Mateo', 'Hana', 'Lucas', 'Ines', 'Omar', 'Sofia', 'Kenji', 'Leila', 'Diego', 'Nora', 'Yusuf', 'Elena', 'Tariq', 'Chloe', 'Ravi', 'Freya', 'Jonas', 'Amara', 'Felix', 'Ingrid', 'Kofi', 'Lucia', 'Marek'];
export const lastNames = ['Nguyen', 'Okafor', 'Schmidt', 'Garcia', 'Kowalski', 'Haddad', 'Tanaka', 'Silva', 'Murphy', 'Rossi', 'Dubois', 'Novak', 'Andersson', 'Mensah', 'Ivanova', 'Costa', 'Fischer', 'Larsen', 'Moreau', 'Khan'];
export const companies = ['Northwind', 'Bluebird Labs', 'Oak & Iron', 'Pixel Forge', 'Greenleaf Co', 'Summit Health', 'Harbor Freight', 'Lumen Studio'];
export const cities = ['Lisbon', 'Berlin', 'Austin', 'Nairobi', 'Osaka', 'Toronto', 'Kraków', 'São Paulo', 'Dublin', 'Pune'];
export const plans = ['free', 'starter', 'pro', 'enterprise'];

export const topics = [
  {
    label: 'billing',
    open: ['Hi, I was charged twice for my subscription this month.', 'Can I get an invoice with our VAT number on it?', 'Why did my bill go up? I did not change plans.'],
    follow: ['The charge shows as pending on my card.', 'Our VAT number is on the account settings page.', 'I attached a screenshot of the statement.'],
    reply: ['Sorry about that! I can see the duplicate charge and have **refunded** it; it takes 3-5 business days.', 'Of course. You can download invoices under *Settings → Billing*, or I can send one here.', 'The price change came from the seat count: you added 3 agents on the 4th.'],
  },
  {
    label: 'bug',
    open: ['The app crashes when I open the reports tab.', 'Export to CSV produces an empty file.', 'I get "Something went wrong" when uploading an avatar.'],
    follow: ['It happens in Chrome and Firefox.', 'Steps: open Reports → pick last 30 days → click Export.', 'Console shows `TypeError: cannot read properties of undefined`.'],
    reply: ['Thanks for the details, I reproduced it. Our engineers are on it; I will update you here.', 'Could you try again? We shipped a fix an hour ago.', 'Here is a workaround while we fix it:\n\n1. Open the list view\n2. Select all\n3. Use *Bulk export*'],
  },
  {
    label: 'feature-request',
    open: ['Is there a way to schedule messages?', 'Do you support SSO with Okta?', 'Could you add a dark mode to the widget?'],
    follow: ['It would save us a lot of time.', 'Our security team requires it before we roll out.', 'Our site is dark and the widget looks out of place.'],
    reply: ['Not yet, but it is on our roadmap. I added your vote!', 'Yes: SSO is available on the **Enterprise** plan. See https://example.com/docs/sso', 'Great idea, I passed it to the product team.'],
  },
  {
    label: 'onboarding',
    open: ['How do I invite my team?', 'Where do I find the API token?', 'Can I import contacts from a spreadsheet?'],
    follow: ['We are 12 people.', 'I need it for our CRM integration.', 'It is about 4,000 rows.'],
    reply: ['Go to *Settings → Agents → Add agent* and enter their emails.', 'It is under **Profile settings → Access token**. Keep it secret!', 'Yes: *Contacts → Import* takes a CSV. Max 10 MB per file.'],
  },
  {
    label: 'refund',
    open: ['I would like a refund for the annual plan.', 'We cancelled but were still billed.', 'Can I get a partial refund for unused seats?'],
    follow: ['We moved to a different tool.', 'The cancellation email is from the 2nd.', 'We went from 20 to 8 seats.'],
    reply: ['I have processed a prorated refund for the remaining months.', 'Apologies, that should not have happened. Refund issued.', 'Seats are refunded as account credit; I applied it now.'],
  },
];

export const smallTalk = ['Thanks!', 'Perfect, thank you 🙏', 'Any update on this?', 'Hello?', 'Ok, I will wait.', 'That worked, thanks a lot!', 'Still seeing the problem.', 'Great, appreciate the quick reply.'];

export const hostile = [
  'Hey <script>alert("xss")</script> is this safe?',
  'Check my site: [click here](javascript:alert(document.cookie))',
  '<img src=x onerror="alert(1)"> my logo does not load',
  '<b>bold?</b> and <iframe src="https://evil.example"></iframe>',
];

export const notes = ['@Jordan can you take a look at this one? Looks like the export bug.', 'Customer is on the enterprise trial, handle with care.', 'Refund approved by finance.', 'Possible duplicate of #12, merging later.'];

export const cannedResponses: [string, string][] = [
  ['greeting', 'Hi there! Thanks for reaching out. How can I help you today?'],
  ['thanks', 'Thanks for your patience! Let me know if there is anything else I can do.'],
  ['refund-policy', 'Our refund policy: full refunds within 30 days, prorated refunds after that.'],
  ['reset-password', 'You can reset your password at https://example.com/reset. The link is valid for 1 hour.'],
  ['escalate', 'I have escalated this to our engineering team; we will get back to you within 24 hours.'],
  ['hours', 'Our support hours are Monday to Friday, 9:00 to 18:00 CET.'],
];

export const labels: [string, string, string][] = [
  ['billing', 'Payments, invoices, plans', '#1f93ff'],
  ['bug', 'Something is broken', '#e5484d'],
  ['feature-request', 'Ideas and requests', '#8e4ec6'],
  ['onboarding', 'Getting started', '#30a46c'],
  ['refund', 'Refund requests', '#f76b15'],
  ['vip', 'Key accounts', '#ffc53d'],
  ['urgent-followup', 'Needs a follow-up today', '#d6409f'],
  ['spam', 'Not a real request', '#8b8d98'],
];
