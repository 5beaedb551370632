import { describe, expect, it } from 'vitest';
import { requestParts } from './intent.js';

describe('requestParts: a sentence that asks nothing', () => {
  it('is folded into the ask before it: it states a detail of that ask', () => {
    expect(requestParts('Rename website "Frank" to "Bob". Web ID is 1234')).toEqual([
      'Rename website "Frank" to "Bob". Web ID is 1234',
    ]);
    expect(
      requestParts(
        "Can you search for recent news articles that mention him? And let's limit it to 5 articles.",
      ),
    ).toEqual([
      "Can you search for recent news articles that mention him? And let's limit it to 5 articles.",
    ]);
    expect(
      requestParts(
        "I need to check the latest readings of the sensors in my office network. The network ID is 'office-network-001'. Can you retrieve the most recent data?",
      ),
    ).toEqual([
      "I need to check the latest readings of the sensors in my office network. The network ID is 'office-network-001'.",
      'Can you retrieve the most recent data?',
    ]);
  });

  it('stays a part of its own before any ask, after another such sentence, or as the next item of a list', () => {
    // A story told before the asks: each sentence may describe a thing to compute.
    expect(
      requestParts(
        'John has $5000 to invest. The first option is a savings account at 4%. The second option is a bond at 3.5%. How much would he have after 5 years?',
      ),
    ).toHaveLength(4);
    // Words of sequence, an ordinal subject and a fronted topic open a next item.
    expect(requestParts('Calculate the factorial of 7. Then, I am looking to buy a flute.')).toHaveLength(2);
    expect(
      requestParts(
        'Analyze my personality with both models. For the MBTI, my preferences are feeling over thinking.',
      ),
    ).toHaveLength(2);
    // The number of a list item opens one ("2) Calculate …": no verb where readActs looks for one).
    expect(
      requestParts(
        'Help me with the following: 1) Calculate the mean of 2, 4. 2) Calculate the variance of 2, 4.',
      ),
    ).toHaveLength(2);
    // A thing wanted with its verb left out is an ask, not a detail.
    expect(
      requestParts("What came out of last Friday's sync? Just the decisions, no need for the rest."),
    ).toHaveLength(2);
    // "Also" starts an ask however short.
    expect(requestParts('Find the GCD of 96 and 128. Also the LCM of 15 and 25.')).toEqual([
      'Find the GCD of 96 and 128.',
      'the LCM of 15 and 25.',
    ]);
  });

  it('a number that ends a sentence is no numbered item; "also" inside a question does not split it', () => {
    expect(requestParts('Calculate the factorial of 7. Then get the fibonacci series up to 150.')).toEqual([
      'Calculate the factorial of 7.',
      'get the fibonacci series up to 150.',
    ]);
    expect(requestParts('Two things: 1. find the paper on RAG. 2. check the release notes.')).toEqual([
      'Two things: 1. find the paper on RAG.',
      '2. check the release notes.',
    ]);
    expect(requestParts("Register the server. Can we also give it a nickname 'Fast'?")).toEqual([
      'Register the server.',
      "Can we also give it a nickname 'Fast'?",
    ]);
    expect(requestParts('Find the hotel, can you also book it?')).toEqual([
      'Find the hotel',
      'can you also book it?',
    ]);
  });
});
